import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, DESKTOP } from '@lockit/test-support/chromium';
import { useE2e } from './support/setup';
import { newAccount, signIn, signUpViaApi } from './support/journeys';
import { openVault } from './support/vault-page';

const e2e = useE2e();

/** Resolves once the app's service worker is active and controls this page. */
async function serviceWorkerInControl(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
    return registration.active?.scriptURL ?? '';
  });
}

describe('the installable app', () => {
  it('is installable with no error Chromium reports, and installs its service worker only once the vault opens', async () => {
    // Chromium installs nothing from an incognito profile, which a plain context is.
    const profile = await mkdtemp(join(tmpdir(), 'lockit-pwa-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      baseURL: e2e.server.url,
      viewport: DESKTOP,
    });
    onTestFinished(async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    // A first visit to the landing pages installs nothing.
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((all) => all.length))).toBe(0);

    const account = newAccount('pwa');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await openVault(page);
    expect(await serviceWorkerInControl(page)).toBe(`${e2e.server.url}/sw.js`);

    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(`${e2e.server.url}/manifest.webmanifest`);
  });

  it('loads its pages with the network off, from what the server last sent', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    const account = newAccount('pwaoff');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await openVault(page);
    await serviceWorkerInControl(page);

    await context.setOffline(true);
    await page.reload();
    expect(await page.title()).toBe('Lockit');
    await page.getByRole('banner').waitFor();
    // A landing page and a route this device never opened come from the cache too.
    await page.goto('/about');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.goto('/generator');
    await page.getByRole('banner').waitFor();
    await context.setOffline(false);
  });
});
