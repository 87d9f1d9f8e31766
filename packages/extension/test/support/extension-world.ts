import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { VerifiedAccount } from '@lockit/test-support';
import type { Status } from '../../src/shared/messages';
import { EXTENSION_DIR, launchWithExtension, type ExtensionBrowser } from './extension-browser';
import { startFixtureSites, type FixtureSites } from './fixture-sites';
import { ask, expectOk } from './popup-requests';
import { startSeededServer, type CardItem, type LoginItem, type SeededServer } from './seed';

/** Everything an extension test drives: the real server with one account, the fixture sites, Chromium with Lockit. */
export interface ExtensionWorld {
  seeded: SeededServer;
  sites: FixtureSites;
  browser: ExtensionBrowser;
  owner: VerifiedAccount;
  /** Opens `url` in a new tab and waits for its login form (or frame) and its frames to load. */
  openSite(url: string, ready?: string): Promise<Page>;
  close(): Promise<void>;
}

/** Starts the world with an account holding `items`; the extension is not signed in yet. */
export async function startWorld(items: readonly (LoginItem | CardItem)[]): Promise<ExtensionWorld> {
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json')))
    throw new Error('Build the extension first: npm run build -w @lockit/extension');
  const [seeded, sites] = await Promise.all([startSeededServer(), startFixtureSites()]);
  const owner = await seeded.account(items);
  const browser = await launchWithExtension();
  return {
    seeded,
    sites,
    browser,
    owner,
    async openSite(url, ready = '#login, iframe') {
      const page = await browser.context.newPage();
      await page.goto(url);
      await page.locator(ready).first().waitFor({ state: 'attached' });
      for (const frame of page.frames()) await frame.waitForLoadState();
      return page;
    },
    async close() {
      await browser.close();
      await sites.close();
      await seeded.stop();
    },
  };
}

/**
 * Connects the extension to the server and signs in with the account's master password, by the
 * popup's own requests (the popup's forms are tested through its buttons elsewhere).
 */
export async function signInByPopup(world: ExtensionWorld): Promise<void> {
  const popup = await world.browser.openPopup();
  await expectOk(ask(popup, { type: 'connect', server: world.seeded.server.url }));
  await expectOk(ask(popup, { type: 'sign-in', username: world.owner.account.username, password: world.owner.account.password }));
  const status = await expectOk(ask<Status>(popup, { type: 'status' }));
  if (status.state !== 'unlocked') throw new Error(`The extension is ${status.state}, not unlocked.`);
  await popup.close();
}
