import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '@lockit/test-support/chromium';

/** The built extension as Chromium loads it unpacked (`npm run build -w @lockit/extension`). */
export const EXTENSION_DIR = resolve(import.meta.dirname, '../../dist/chromium');

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /** The extension's service worker (the one that holds the key). */
  worker(): Promise<Worker>;
  /** The popup, opened in a tab of its own for the tab `forTab` (what the toolbar popup would act on). */
  openPopup(forTab?: Page): Promise<Page>;
  /** The browser's id of a page's tab. */
  tabIdOf(page: Page): Promise<number>;
  /** Stops the extension's service worker, as the browser does when it is idle. */
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Debian's Chromium in its new headless mode with only Lockit loaded, a profile of its own,
 * and every *.test host name resolved to this machine (the fixture sites).
 */
export async function launchWithExtension(): Promise<ExtensionBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'lockit-extension-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1000, height: 700 },
    args: [
      ...CHROMIUM_FLAGS,
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      '--host-resolver-rules=MAP *.test 127.0.0.1',
      // The fixture sites' certificate is self-signed.
      '--ignore-certificate-errors',
    ],
  });
  const worker = async () => context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL((await worker()).url()).host;
  const tabIdOf = async (page: Page) => {
    const url = page.url();
    const id = await (
      await worker()
    ).evaluate(async (address) => {
      const tabs = await chrome.tabs.query({});
      return tabs.find((tab) => tab.url === address)?.id;
    }, url);
    if (id === undefined) throw new Error(`No tab shows ${url}`);
    return id;
  };
  return {
    context,
    extensionId,
    worker,
    tabIdOf,
    async openPopup(forTab) {
      const popup = await context.newPage();
      // The size of the toolbar popup, so the screenshots show what a person sees.
      await popup.setViewportSize({ width: 360, height: 540 });
      const query = forTab ? `?tab=${await tabIdOf(forTab)}` : '';
      await popup.goto(`chrome-extension://${extensionId}/popup.html${query}`);
      return popup;
    },
    async stopWorker() {
      const page = context.pages()[0] ?? (await context.newPage());
      const cdp = await context.newCDPSession(page);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await cdp.detach();
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
