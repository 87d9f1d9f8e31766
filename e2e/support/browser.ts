import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Debian's Chromium: Playwright's own browser download cannot work on our machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Without the background-networking flags Chromium keeps dialling out of a closed network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 375, height: 740 } as const;

export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  // A blocked eval or inline script is reported by this event, not on the console: turn it
  // into a console error so collectPageErrors fails the test (a CSP issue, e.g. a library's
  // caught `new Function` probe, is a failed Lighthouse audit too). Playwright injects this
  // script itself, so the page's CSP does not apply to it.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return context;
}

/** Fails the test on any console error or uncaught page error. */
export function collectPageErrors(context: BrowserContext): string[] {
  const errors: string[] = [];
  context.on('page', (page) => {
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // Chromium reports every 4xx answer (e.g. the signed-out session check) as a console
      // error of its own; those are the API working as designed, not app errors.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        errors.push(`console.error: ${message.text()}`);
      }
    });
  });
  return errors;
}
