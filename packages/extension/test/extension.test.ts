import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { apiPaths } from '@lockit/contract';
import type { VerifiedAccount } from '@lockit/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FillResult, ItemSummary, SaveOffer } from '../src/shared/messages';
import type { ExtensionBrowser } from './support/extension-browser';
import { startWorld, type ExtensionWorld } from './support/extension-world';
import { clickMenu, menuFrameOf } from './support/inline-menu';
import { ask, fieldValues, itemId } from './support/popup-requests';
import type { FixtureSites } from './support/fixture-sites';
import { totpNow, type SeededServer } from './support/seed';

const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-results/extension');
const BANK = {
  name: 'Birch Bank',
  username: 'ada',
  password: 'bank-pass-1',
  urls: ['https://bank.test'],
  totp: 'JBSWY3DPEHPK3PXP',
};
const CLUB = { name: 'Cedar Club', username: 'ada', password: 'club-pass-4', urls: ['https://club.test'] };
const MAIL = { name: 'Maple Mail', username: 'ada@maple.example', password: 'mail-pass-2', urls: ['https://mail.example'] };

let world: ExtensionWorld;
let seeded: SeededServer;
let sites: FixtureSites;
let browser: ExtensionBrowser;
let owner: VerifiedAccount;
let totpSecret: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  world = await startWorld([BANK, MAIL, CLUB]);
  ({ seeded, sites, browser, owner } = world);
  totpSecret = await seeded.enableTotp(owner);
});

afterAll(async () => {
  await world?.close();
});

/** What the popup copied, read back by a page of the test's own (clipboard access is granted there only). */
async function readClipboard(): Promise<string> {
  const reader = await browser.context.newPage();
  const url = sites.https('reader.test', '/login');
  await browser.context.grantPermissions(['clipboard-read'], { origin: new URL(url).origin });
  await reader.goto(url);
  await reader.bringToFront();
  const text = await reader.evaluate(() => navigator.clipboard.readText());
  await reader.close();
  return text;
}

const openSite = (url: string) => world.openSite(url);

describe('the extension signs in as a device of its own and holds the key in memory only', () => {
  it('connects, signs in with the master password and a TOTP code, locks, unlocks, and stays unlocked over a worker restart', async () => {
    const popup = await browser.openPopup();
    await popup.getByLabel('Server address').fill(seeded.server.url);
    await popup.screenshot({ path: join(SCREENSHOTS, '1-connect.png') });
    await popup.getByRole('button', { name: 'Connect' }).click();

    await popup.getByLabel('User name').fill(owner.account.username);
    await popup.getByLabel('Master password').fill(owner.account.password);
    await popup.screenshot({ path: join(SCREENSHOTS, '2-sign-in.png') });
    await popup.getByRole('button', { name: 'Sign in' }).click();

    // The code of the next step: enrolment used the current one.
    await popup.getByLabel('Authenticator code').fill(totpNow(totpSecret, Date.now() + 30_000));
    await popup.screenshot({ path: join(SCREENSHOTS, '3-second-step.png') });
    await popup.getByRole('button', { name: 'Verify' }).click();
    await popup.getByText(BANK.name).waitFor();
    await popup.getByText(MAIL.name).waitFor();
    await popup.screenshot({ path: join(SCREENSHOTS, '4-vault.png') });

    // A session of its own: the account now has the seeding client's session and the extension's.
    const sessions = await owner.client.expect<{ data: unknown[] }>(200, 'GET', apiPaths.sessions);
    expect(sessions.data).toHaveLength(2);

    // The key is in storage.session (memory), never in storage.local (disk).
    const worker = await browser.worker();
    const stored = await worker.evaluate(async () => ({
      local: JSON.stringify(await chrome.storage.local.get(null)),
      session: Object.keys(await chrome.storage.session.get(null)),
    }));
    expect(stored.session).toEqual(['lockit.vault']);
    expect(stored.local).not.toContain('lockit.vault');
    expect(stored.local).not.toContain(owner.account.password);

    // The browser stops an idle worker: the vault stays open.
    await browser.stopWorker();
    const again = await browser.openPopup();
    await again.getByText(BANK.name).waitFor();

    // Lock on demand: no key anywhere, the Unlock form asks for the master password only.
    await again.getByRole('button', { name: 'Lock' }).click();
    await again.getByRole('heading', { name: 'Unlock' }).waitFor();
    expect(await (await browser.worker()).evaluate(async () => Object.keys(await chrome.storage.session.get(null)))).toEqual([]);
    await again.screenshot({ path: join(SCREENSHOTS, '5-locked.png') });
    await again.getByLabel('Master password').fill('not the password');
    await again.getByRole('button', { name: 'Unlock' }).click();
    await again.getByRole('alert').filter({ hasText: 'That master password did not unlock your vault.' }).waitFor();
    await again.getByLabel('Master password').fill(owner.account.password);
    await again.getByRole('button', { name: 'Unlock' }).click();
    await again.getByText(BANK.name).waitFor();
    await Promise.all([popup.close(), again.close()]);
  });
});

describe('fill and copy', () => {
  it('lists the site’s item first and fills it into the page on a click in the popup', async () => {
    const site = await openSite(sites.https('bank.test', '/login'));
    const popup = await browser.openPopup(site);
    const forSite = popup.getByRole('region', { name: 'For this site' });
    await forSite.getByText(BANK.name).waitFor();
    expect(await forSite.getByText(MAIL.name).count()).toBe(0);
    await popup.screenshot({ path: join(SCREENSHOTS, '6-for-this-site.png') });

    await popup.getByRole('button', { name: `Fill ${BANK.name}` }).click();
    await popup
      .getByRole('status')
      .filter({ hasText: `Filled ${BANK.name}.` })
      .waitFor();
    expect(await site.inputValue('#username')).toBe(BANK.username);
    expect(await site.inputValue('#password')).toBe(BANK.password);

    // Keyboard only: search, then Tab to the item's copy button and press Enter.
    await popup.getByLabel('Search the vault').fill('maple');
    await popup.getByRole('region', { name: 'Search results' }).getByText(MAIL.name).waitFor();
    await popup.getByRole('button', { name: `Copy password of ${MAIL.name}` }).focus();
    await popup.keyboard.press('Enter');
    await popup
      .getByRole('status')
      .filter({ hasText: `Password of ${MAIL.name} copied.` })
      .waitFor();
    expect(await readClipboard()).toBe(MAIL.password);

    await popup.getByLabel('Search the vault').fill('birch');
    await popup.getByRole('button', { name: `Copy code of ${BANK.name}` }).click();
    await popup
      .getByRole('status')
      .filter({ hasText: `Code of ${BANK.name} copied.` })
      .waitFor();
    const code = await readClipboard();
    expect([totpNow(BANK.totp), totpNow(BANK.totp, Date.now() - 30_000)]).toContain(code);
    await Promise.all([popup.close(), site.close()]);
  });
});

describe('live changes', () => {
  it('shows an item added on another device in the open popup, without reopening it', async () => {
    const popup = await browser.openPopup();
    await popup.getByText(MAIL.name).first().waitFor();
    const LARCH = { name: 'Larch Library', username: 'ada', password: 'larch-pass-5', urls: ['https://larch.test'] };
    const added = Date.now();
    await seeded.add(owner, LARCH);
    await popup.getByText(LARCH.name).waitFor({ timeout: 3_000 });
    console.info(`extension live sync: an item added elsewhere shown in the open popup after ${Date.now() - added} ms`);
    await popup.close();
  });
});

describe('the page cannot get a fill it should not', () => {
  const NOT_THIS_SITE = 'This item is not for this site.';
  const NO_FIELD = 'No password field here.';
  const NOT_VISIBLE = 'The password field is not visible.';
  const framed = (host: string) => sites.https('bank.test', `/framed?src=${encodeURIComponent(sites.https(host, '/login'))}`);
  const attacks: Array<[string, () => string, string]> = [
    ['a look-alike host (bank.test.evil.test)', () => sites.https('bank.test.evil.test', '/login'), NOT_THIS_SITE],
    ['the http: page of an https: item', () => sites.http('bank.test', '/login'), NOT_THIS_SITE],
    // The bank's own page matches, but the form is in a frame of another origin: only the top frame is asked.
    ['a cross-origin frame (evil.test) in the bank’s page', () => framed('evil.test'), NO_FIELD],
    ['a sibling subdomain’s frame (sub.bank.test) in the bank’s page', () => framed('sub.bank.test'), NO_FIELD],
    ['a hidden form (display:none)', () => sites.https('bank.test', '/hidden'), NOT_VISIBLE],
    ['an invisible form (visibility:hidden)', () => sites.https('bank.test', '/invisible'), NOT_VISIBLE],
    ['a form in an opacity:0 ancestor', () => sites.https('bank.test', '/transparent'), NOT_VISIBLE],
    ['an off-screen form', () => sites.https('bank.test', '/off-screen'), NOT_VISIBLE],
    ['1x1 fields', () => sites.https('bank.test', '/tiny'), NOT_VISIBLE],
  ];

  it.each(attacks)('leaves every field empty on %s, even when the fill is asked for', async (_name, url, refused) => {
    const site = await openSite(url());
    const popup = await browser.openPopup(site);
    const id = await itemId(popup, BANK.name);
    const answer = await ask<FillResult>(popup, { type: 'fill', id, tabId: await browser.tabIdOf(site) });
    expect(answer).toEqual({ ok: true, value: { filled: 0, refused } });
    expect(await fieldValues(site)).toEqual(expect.arrayContaining(['', '']));
    expect((await fieldValues(site)).every((value) => value === '')).toBe(true);
    await Promise.all([popup.close(), site.close()]);
  });

  it('fills nothing on its own when a matching page loads (no user gesture)', async () => {
    const site = await openSite(sites.https('bank.test', '/login'));
    await site.waitForTimeout(1500);
    expect(await fieldValues(site)).toEqual(['', '']);
    await site.close();
  });

  it('fills nothing for a page posting forged requests, events and runtime messages', async () => {
    const site = await openSite(sites.https('bank.test', '/forged'));
    await site.waitForFunction(() => Number(document.body.dataset['sent'] ?? 0) >= 15);
    expect(await fieldValues(site)).toEqual(['', '']);
    await site.close();
  });
});

describe('the inline menu', () => {
  /** Opens the menu by a real click in the user name field; resolves with the page and the menu's frame. */
  async function openMenu(attack: string): Promise<{ site: Page; menu: Frame }> {
    const site = await openSite(sites.https('bank.test', `/menu-login?attack=${attack}`));
    await site.click('#username');
    await site.waitForFunction(() => document.body.dataset['attacked'] !== undefined);
    const menu = await menuFrameOf(site);
    await menu.getByRole('button', { name: new RegExp(BANK.name) }).waitFor();
    // Longer than the menu must be shown before a click counts, and after any move.
    await site.waitForTimeout(1200);
    return { site, menu };
  }

  it('fills the login on a real click on a plainly visible menu', async () => {
    const { site } = await openMenu('none');
    await site.screenshot({ path: join(SCREENSHOTS, '7-inline-menu.png') });
    await clickMenu(site);
    // The menu closes once it filled.
    await expect.poll(() => site.inputValue('#username')).toBe(BANK.username);
    expect(await site.inputValue('#password')).toBe(BANK.password);
    await site.close();
  });

  const clickjacks: Array<[string, string, string | null]> = [
    ['the menu host faded to opacity 0', 'host-opacity', 'The menu is not fully opaque.'],
    ['the body faded to opacity 0.01', 'body-opacity', 'The menu is not fully opaque.'],
    ['the root element at opacity 0.5', 'root-opacity', 'The menu is not fully opaque.'],
    // Clicks pass through the cover to the menu: only the browser's visibility report sees it.
    ['a cover that lets clicks through', 'cover-pass-through', 'The browser reports the menu as covered or faded.'],
    // The cover takes the click: the menu never hears of it.
    ['a cover that takes the click', 'cover', null],
    ['the menu moved under the pointer', 'move', 'The menu was moved.'],
    ['a page popover raised above the menu (the top layer)', 'popover', 'The browser reports the menu as covered or faded.'],
    ['a cover shown and hidden every 40 ms', 'toggle', 'The page just changed what is over the menu.'],
  ];

  it.each(clickjacks)('fills nothing with %s', async (_name, attack, refused) => {
    const { site, menu } = await openMenu(attack);
    await clickMenu(site);
    if (refused !== null) await menu.getByRole('status').filter({ hasText: refused }).waitFor();
    else await site.waitForTimeout(1500);
    expect(await fieldValues(site)).toEqual(['', '']);
    await site.close();
  });
});

describe('save and update offers', () => {
  /** How many entries the server holds for the account: a save the person did not agree to would add one. */
  async function serverEntryCount(): Promise<number> {
    const listed = await owner.client.expect<{ data: unknown[] }>(200, 'GET', apiPaths.listEntries);
    return listed.data.length;
  }

  async function badgeOf(page: Page): Promise<string> {
    const tabId = await browser.tabIdOf(page);
    return (await browser.worker()).evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId);
  }

  /** Types a login into the page's form and presses its button with a real click; resolves once the page moved on. */
  async function signInOn(host: string, username: string, password: string): Promise<Page> {
    const site = await openSite(sites.https(host, '/login'));
    await site.fill('#username', username);
    await site.fill('#password', password);
    await Promise.all([site.waitForURL(/\/done/), site.click('button[type="submit"]')]);
    return site;
  }

  async function copiedPassword(popup: Page, name: string): Promise<string> {
    const answer = await ask<string>(popup, { type: 'copy', id: await itemId(popup, name), field: 'password' });
    if (!answer.ok) throw new Error(answer.error);
    return answer.value;
  }

  it('offers to save a submitted login in its popup after the page moved on, and saves it only on Save', async () => {
    const before = await serverEntryCount();
    const site = await signInOn('shop.test', 'grace', 'shop-pass-3');
    await expect.poll(() => badgeOf(site)).toBe('1');
    // Offered, not saved: nothing changed on the server yet.
    expect(await serverEntryCount()).toBe(before);

    const popup = await browser.openPopup(site);
    const offer = popup.getByRole('region', { name: 'Save login' });
    await offer.getByRole('heading', { name: /^Save login for shop\.test:\d+\?$/ }).waitFor();
    await offer.getByText('grace').waitFor();
    await popup.screenshot({ path: join(SCREENSHOTS, '8-save-offer.png') });
    await offer.getByRole('button', { name: 'Save' }).click();
    await popup.getByRole('status').filter({ hasText: 'Saved the login for shop.test.' }).waitFor();
    // The popup still open lists it for the site at once.
    await popup.getByRole('region', { name: 'For this site' }).getByText('shop.test', { exact: true }).waitFor();
    await popup.screenshot({ path: join(SCREENSHOTS, '8b-saved.png') });

    expect(await serverEntryCount()).toBe(before + 1);
    expect(await copiedPassword(popup, 'shop.test')).toBe('shop-pass-3');
    expect(await badgeOf(site)).toBe('');
    await Promise.all([popup.close(), site.close()]);
  });

  it('saves nothing when the offer is dismissed, and does not ask again', async () => {
    const before = await serverEntryCount();
    const site = await signInOn('news.test', 'grace', 'news-pass-6');
    await expect.poll(() => badgeOf(site)).toBe('1');
    const popup = await browser.openPopup(site);
    const offer = popup.getByRole('region', { name: 'Save login' });
    await offer.getByRole('button', { name: 'Not now' }).click();
    await offer.waitFor({ state: 'detached' });

    expect(await serverEntryCount()).toBe(before);
    expect(await badgeOf(site)).toBe('');
    const tabId = await browser.tabIdOf(site);
    const offered = await ask<SaveOffer | null>(popup, { type: 'save-offer', tabId });
    expect(offered).toEqual({ ok: true, value: null });
    const search = await ask<ItemSummary[]>(popup, { type: 'items', query: 'news' });
    expect(search).toEqual({ ok: true, value: [] });
    await Promise.all([popup.close(), site.close()]);
  });

  it('offers to update the matching item when its password changed, and offers nothing for a login it has', async () => {
    const before = await serverEntryCount();
    const site = await signInOn('club.test', CLUB.username, 'club-pass-5');
    await expect.poll(() => badgeOf(site)).toBe('1');
    const popup = await browser.openPopup(site);
    const offer = popup.getByRole('region', { name: 'Save login' });
    await offer.getByRole('heading', { name: `Update the password of ${CLUB.name}?` }).waitFor();
    await popup.screenshot({ path: join(SCREENSHOTS, '9-update-offer.png') });
    await offer.getByRole('button', { name: 'Update' }).click();
    await popup
      .getByRole('status')
      .filter({ hasText: `Password of ${CLUB.name} updated.` })
      .waitFor();
    expect(await serverEntryCount()).toBe(before);
    expect(await copiedPassword(popup, CLUB.name)).toBe('club-pass-5');
    await Promise.all([popup.close(), site.close()]);

    // The same login again: Lockit has it, so there is nothing to ask.
    const again = await signInOn('club.test', CLUB.username, 'club-pass-5');
    const tabId = await browser.tabIdOf(again);
    const check = await browser.openPopup(again);
    await check.getByLabel('Search the vault').waitFor();
    expect(await ask<SaveOffer | null>(check, { type: 'save-offer', tabId })).toEqual({ ok: true, value: null });
    expect(await check.getByRole('region', { name: 'Save login' }).count()).toBe(0);
    await Promise.all([check.close(), again.close()]);
  });

  it('fills a generated password into a sign-up form only on a click in the inline menu, then offers to save it', async () => {
    const before = await serverEntryCount();
    const site = await openSite(sites.https('join.test', '/signup'));
    await site.click('#new-password');
    await (await menuFrameOf(site)).getByRole('button', { name: 'Use a generated password' }).waitFor();
    // Shown, but nothing filled until the person clicks.
    await site.waitForTimeout(1200);
    expect(await site.inputValue('#new-password')).toBe('');
    await clickMenu(site);
    await expect.poll(() => site.inputValue('#new-password')).not.toBe('');
    const generated = await site.inputValue('#new-password');
    expect(generated).toHaveLength(20);
    expect(await site.inputValue('#confirm-password')).toBe(generated);

    await site.fill('#username', 'grace');
    await Promise.all([site.waitForURL(/\/done/), site.click('button[type="submit"]')]);
    await expect.poll(() => badgeOf(site)).toBe('1');
    const popup = await browser.openPopup(site);
    const offer = popup.getByRole('region', { name: 'Save login' });
    await offer.getByRole('heading', { name: /^Save login for join\.test:\d+\?$/ }).waitFor();
    await offer.getByRole('button', { name: 'Save' }).click();
    await popup.getByRole('status').filter({ hasText: 'Saved the login for join.test.' }).waitFor();
    expect(await serverEntryCount()).toBe(before + 1);
    expect(await copiedPassword(popup, 'join.test')).toBe(generated);
    await Promise.all([popup.close(), site.close()]);
  });

  it('changes nothing for a page posting forged save messages, submit events and clicks', async () => {
    const before = await serverEntryCount();
    const site = await browser.context.newPage();
    await site.goto(sites.https('evil.test', '/forged-save'));
    await site.waitForURL(/after=forged/);
    await site.waitForTimeout(1000);
    expect(await badgeOf(site)).toBe('');
    const tabId = await browser.tabIdOf(site);
    const stored = await (
      await browser.worker()
    ).evaluate(async () => (await chrome.storage.session.get('lockit.offers'))['lockit.offers'] ?? {});
    expect(Object.keys(stored as object)).not.toContain(String(tabId));
    const popup = await browser.openPopup(site);
    expect(await ask<SaveOffer | null>(popup, { type: 'save-offer', tabId })).toEqual({ ok: true, value: null });
    expect(await serverEntryCount()).toBe(before);
    await Promise.all([popup.close(), site.close()]);
  });
});
