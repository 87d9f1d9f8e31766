import Bowser from 'bowser';

/** A browser and a system as a person reads them ("Chrome 156", "Linux"); null when unknown. */
export interface DeviceDescription {
  browser: string | null;
  system: string | null;
}

/**
 * The only browser names ever shown: names bowser gives for browsers it recognises by their
 * own tokens. Bowser's last resort copies whatever a User-Agent writes before its first "/"
 * as the browser's name, so without this list a client could put any sentence it likes
 * ("This sign-in was Lockit support…") into the owner's sign-in mail and sessions list.
 */
export const KNOWN_BROWSERS: ReadonlySet<string> = new Set([
  'Amazon Silk',
  'Android Browser',
  'Brave',
  'Chrome',
  'Chromium',
  'DuckDuckGo',
  'Electron',
  'Epiphany',
  'Firefox',
  'Internet Explorer',
  'LibreWolf',
  'Microsoft Edge',
  'NAVER Whale Browser',
  'Opera',
  'Opera Coast',
  'Pale Moon',
  'QQ Browser',
  'Safari',
  'Samsung Internet for Android',
  'SeaMonkey',
  'UC Browser',
  'Vivaldi',
  'WeChat',
  'Yandex Browser',
]);

/** The only system names ever shown (bowser's own list of the systems it recognises). */
export const KNOWN_SYSTEMS: ReadonlySet<string> = new Set([
  'Android',
  'BlackBerry',
  'Chrome OS',
  'HarmonyOS',
  'iOS',
  'Linux',
  'macOS',
  'Tizen',
  'WebOS',
  'Windows',
  'Windows Phone',
]);

/** The User-Agent of Lockit's command line agent: `LockitCLI/0.1.0 (Linux; Node 20.19.0)`. */
const LOCKIT_CLI = /^LockitCLI\/\d{1,4}\.\d{1,4}\.\d{1,4} /;

/** Windows' marketing names as bowser maps them from "NT x.y": nothing else is shown as its version. */
const WINDOWS_VERSIONS: ReadonlySet<string> = new Set([
  '11',
  '10',
  '8.1',
  '8',
  '7',
  'Vista',
  'XP',
  '2000',
  'NT',
  'RT',
  'ME',
  '98',
  '95',
]);

/**
 * Reads a stored User-Agent at list time (never stored parsed, so a better parser improves old
 * sessions too). The header is whatever the client sent, no proof of the device.
 *
 * Security invariant: the answer is built only from the fixed names above and a version of at
 * most 4 digits, so nothing the client wrote reaches a page or a mail as text of its choosing;
 * a browser or system outside the lists is null ("an unknown browser").
 */
export function describeUserAgent(userAgent: string | null): DeviceDescription {
  if (!userAgent || userAgent.trim() === '') return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  // Lockit's own command line (packages/cli) names itself so; its system is read as a browser's is.
  if (LOCKIT_CLI.test(userAgent)) {
    const system = known(KNOWN_SYSTEMS, parsed.os.name) ?? (/\bLinux\b/.test(userAgent) ? 'Linux' : undefined);
    return { browser: 'Lockit command line', system: system ?? null };
  }
  const browserName = known(KNOWN_BROWSERS, parsed.browser.name);
  const osName = known(KNOWN_SYSTEMS, parsed.os.name);
  // Windows reports "NT 10.0"; its marketing name ("10", "11") is what people know.
  const osVersion = osName === 'Windows' ? known(WINDOWS_VERSIONS, parsed.os.versionName) : majorOf(parsed.os.version);
  return {
    browser: browserName ? [browserName, majorOf(parsed.browser.version)].filter(Boolean).join(' ') : null,
    system: osName ? [osName, osVersion].filter(Boolean).join(' ') : null,
  };
}

function known(names: ReadonlySet<string>, name: string | undefined): string | undefined {
  const trimmed = name?.trim();
  return trimmed !== undefined && names.has(trimmed) ? trimmed : undefined;
}

function majorOf(version: string | undefined): string | undefined {
  return version?.match(/^\d{1,4}(?!\d)/)?.[0];
}
