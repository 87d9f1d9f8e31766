import { chromium, type Browser, type Page } from 'playwright-core';
import { installProbes } from './page-probes';

/** Debian's Chromium: Playwright's own browser download cannot work on our machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the background-networking flags Chromium keeps dialling out of a closed network. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The launch options of e2e/support/browser.ts (that workspace exports nothing to this one). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

export const DESKTOP = { width: 1280, height: 800 } as const;

/**
 * tsx compiles this package with esbuild's keepNames, which wraps inner functions in
 * `__name(fn, "name")`; a function sent to the page keeps those calls, so the page needs it.
 */
const NAME_SHIM = 'globalThis.__name ??= (fn) => fn;';

/**
 * A page in a fresh context (its own cookies and storage) whose every document gets the
 * probes before any of the app's scripts run, so long tasks from the first one are seen.
 */
export async function newProbedPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP });
  await context.addInitScript({ content: NAME_SHIM });
  await context.addInitScript(installProbes);
  const page = await context.newPage();
  // 10,000 entries on 2 busy cores: give slow steps room, a stuck one still fails.
  page.setDefaultTimeout(60_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('close', () => {
    if (errors.length > 0) console.warn(`page errors: ${errors.join(' | ')}`);
  });
  return page;
}
