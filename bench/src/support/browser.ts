import type { Browser, Page } from 'playwright-core';
import { DESKTOP, launchChromium } from '@lockit/test-support/chromium';
import { installProbes } from './page-probes';

export { launchChromium as launchBrowser };

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
