import Bowser from 'bowser';

/** A browser and a system as a person reads them ("Chrome 156", "Linux"); null when unknown. */
export interface DeviceDescription {
  browser: string | null;
  system: string | null;
}

/**
 * Reads a stored User-Agent at list time (never stored parsed, so a better parser improves old
 * sessions too). The header is whatever the client sent: the answer is plain text for the
 * page to show, never markup, and is no proof of the device.
 */
export function describeUserAgent(userAgent: string | null): DeviceDescription {
  if (!userAgent || userAgent.trim() === '') return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  const browserName = parsed.browser.name?.trim();
  const browserMajor = majorOf(parsed.browser.version);
  const osName = parsed.os.name?.trim();
  // Windows reports "NT 10.0"; its marketing name ("10", "11") is what people know.
  const osVersion = osName === 'Windows' ? parsed.os.versionName : majorOf(parsed.os.version);
  return {
    browser: browserName ? [browserName, browserMajor].filter(Boolean).join(' ') : null,
    system: osName ? [osName, osVersion].filter(Boolean).join(' ') : null,
  };
}

function majorOf(version: string | undefined): string | undefined {
  const major = version?.match(/^\d+/)?.[0];
  return major;
}
