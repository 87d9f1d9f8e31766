import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: Playwright's own browser download cannot work on our machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The one list of flags. Without the background-networking ones Chromium keeps dialling out
 * of a closed network; /dev/shm is small in containers.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
] as const;

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 375, height: 740 } as const;

/** Headless Debian Chromium with the flags above (and any extra ones). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS, ...extraArgs] });
}
