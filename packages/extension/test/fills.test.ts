import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FillResult } from '../src/shared/messages';
import { startWorld, signInByPopup, type ExtensionWorld } from './support/extension-world';
import { clickMenu, menuFrameOf } from './support/inline-menu';
import { ask, expectOk, fieldValues, itemId } from './support/popup-requests';
import { totpNow, type CardItem } from './support/seed';

/** The fills beyond a plain login form: steps, shadow roots, late forms, frames, the shortcut, codes, cards. */
const BANK = {
  name: 'Birch Bank',
  username: 'ada',
  password: 'bank-pass-1',
  urls: ['https://bank.test'],
  totp: 'JBSWY3DPEHPK3PXP',
};
const CARD: CardItem = {
  type: 'card',
  name: 'Oak Visa',
  card: { holder: 'Ada Lovelace', brand: 'Visa', number: '4111 1111 1111 1111', code: '737', expMonth: '7', expYear: '2031' },
};

/**
 * A login whose addresses carry their own match rules: the sign-in page by a regular expression
 * (the fixture sites' port is chosen at run time), and an old host never.
 */
const MAIL = {
  name: 'Pine Mail',
  username: 'grace',
  password: 'mail-pass-2',
  urls: ['^https://mail\\.test:\\d+/login$', 'https://old-mail.test'],
  urlRules: { '^https://mail\\.test:\\d+/login$': 'regex', 'https://old-mail.test': 'never' } as const,
};

let world: ExtensionWorld;

beforeAll(async () => {
  world = await startWorld([BANK, CARD, MAIL]);
  await signInByPopup(world);
});

afterAll(async () => {
  await world?.close();
});

const https = (host: string, path: string) => world.sites.https(host, path);
const openReady = (url: string) => world.openSite(url, 'body[data-ready]');

/** The popup's fill of `name` into the tab of `site`, as its Fill button asks for it. */
async function fillFromPopup(site: Page, name: string): Promise<FillResult> {
  const popup = await world.browser.openPopup(site);
  try {
    return await expectOk(
      ask<FillResult>(popup, { type: 'fill', id: await itemId(popup, name), tabId: await world.browser.tabIdOf(site) }),
    );
  } finally {
    await popup.close();
  }
}

/**
 * The keyboard shortcut, as Chromium delivers it. A real key press of the command's key goes
 * to the browser's own accelerators, which events injected through the DevTools protocol (all
 * Playwright can type) never reach: the page would get Ctrl+Shift+L as an ordinary key. So the
 * test dispatches the very event Chromium dispatches for the key, chrome.commands.onCommand
 * with the command's name and the active tab, in the extension's running service worker:
 * the listener service-worker.ts registered runs, and fill-command.ts does the rest as on a
 * key press. The page cannot do this (it has no access to the extension's worker).
 */
async function pressFillShortcut(site: Page, command = 'fill-login'): Promise<void> {
  const tabId = await world.browser.tabIdOf(site);
  await site.bringToFront();
  const worker = await world.browser.worker();
  await worker.evaluate(
    async ({ id, name }) => {
      const tab = await chrome.tabs.get(id);
      (chrome.commands.onCommand as unknown as { dispatch(command: string, tab: chrome.tabs.Tab): void }).dispatch(name, tab);
    },
    { id: tabId, name: command },
  );
}

/** Submits the page's form with a real click and waits for the next page. */
async function submit(site: Page, button: string, next: RegExp): Promise<void> {
  await Promise.all([site.waitForURL(next), site.getByRole('button', { name: button }).click()]);
  await site.locator('body[data-ready]').waitFor({ state: 'attached' });
}

describe('logins beyond a plain form', () => {
  it('fills a multi-step sign-in: the user name on its page, then the password alone on the next', async () => {
    const site = await openReady(https('bank.test', '/step-user'));
    expect(await fillFromPopup(site, BANK.name)).toEqual({ filled: 1 });
    expect(await site.inputValue('#username')).toBe(BANK.username);

    await submit(site, 'Next', /\/step-password/);
    expect(await fillFromPopup(site, BANK.name)).toEqual({ filled: 1 });
    expect(await site.inputValue('#password')).toBe(BANK.password);
    // The step's hidden user name is the page's, untouched.
    expect(await site.locator('input[type="hidden"]').inputValue()).toBe(BANK.username);
    await site.close();
  });

  it('fills no step of a multi-step sign-in whose field is invisible', async () => {
    const steps: Array<[string, string]> = [
      ['/step-user?hidden=1', 'The user name field is not visible.'],
      ['/otp?hidden=1', 'The code field is not visible.'],
    ];
    for (const [path, refused] of steps) {
      const site = await openReady(https('bank.test', path));
      expect(await fillFromPopup(site, BANK.name)).toEqual({ filled: 0, refused });
      expect(await fieldValues(site)).toEqual(['']);
      await site.close();
    }
  });

  it('fills a login inside an open shadow root from the popup and the inline menu, and nothing inside a closed one', async () => {
    const site = await openReady(https('bank.test', '/shadow?mode=open'));
    expect(await fillFromPopup(site, BANK.name)).toEqual({ filled: 2 });
    // Playwright's locators pierce open shadow roots.
    expect(await site.locator('login-box #username').inputValue()).toBe(BANK.username);
    expect(await site.locator('login-box #password').inputValue()).toBe(BANK.password);
    await site.close();

    // The inline menu opens on the field inside the root and fills it on a click.
    const menuSite = await openReady(https('bank.test', '/shadow?mode=open'));
    await menuSite.locator('login-box #username').click();
    await (await menuFrameOf(menuSite)).getByRole('button', { name: new RegExp(BANK.name) }).waitFor();
    // Longer than the menu must be shown before a click counts.
    await menuSite.waitForTimeout(1200);
    await clickMenu(menuSite);
    await expect.poll(() => menuSite.locator('login-box #password').inputValue()).toBe(BANK.password);
    expect(await menuSite.locator('login-box #username').inputValue()).toBe(BANK.username);
    await menuSite.close();

    const closed = await openReady(https('bank.test', '/shadow?mode=closed'));
    expect(await fillFromPopup(closed, BANK.name)).toEqual({ filled: 0, refused: 'No password field here.' });
    await closed.close();
  });

  it('fills a login form drawn 2 s after load on a fill asked while it is drawn, never on its appearing alone', async () => {
    const idle = await world.browser.context.newPage();
    await idle.goto(https('bank.test', '/late'));
    await idle.locator('body[data-ready] #login').waitFor({ state: 'attached' });
    await idle.waitForTimeout(1000);
    expect(await fieldValues(idle)).toEqual(['', '']);
    await idle.close();

    // The person asks as the page loads: the fill looks again until the form is drawn.
    const site = await world.browser.context.newPage();
    await site.goto(https('bank.test', '/late'));
    expect(await site.locator('#login').count()).toBe(0);
    expect(await fillFromPopup(site, BANK.name)).toEqual({ filled: 2 });
    expect(await site.inputValue('#username')).toBe(BANK.username);
    expect(await site.inputValue('#password')).toBe(BANK.password);
    await site.close();
  });

  it('fills a login in a frame of the page’s exact origin, and not in a sibling subdomain’s frame', async () => {
    const framed = (host: string) => https('bank.test', `/framed?src=${encodeURIComponent(https(host, '/login'))}`);
    const site = await world.openSite(framed('bank.test'));
    const frame = site.frames().find((candidate) => candidate !== site.mainFrame())!;
    expect(await fillFromPopup(site, BANK.name)).toEqual({ filled: 2 });
    expect(await frame.inputValue('#username')).toBe(BANK.username);
    expect(await frame.inputValue('#password')).toBe(BANK.password);
    await site.close();

    const sibling = await world.openSite(framed('sub.bank.test'));
    expect(await fillFromPopup(sibling, BANK.name)).toEqual({ filled: 0, refused: 'No password field here.' });
    expect((await fieldValues(sibling)).every((value) => value === '')).toBe(true);
    await sibling.close();
  });
});

describe('the keyboard shortcut', () => {
  it('fills the site’s login through the manifest’s command', async () => {
    const site = await world.openSite(https('bank.test', '/login'));
    // Another command name does nothing.
    await pressFillShortcut(site, 'not-a-command');
    await site.waitForTimeout(500);
    expect(await fieldValues(site)).toEqual(['', '']);

    await pressFillShortcut(site);
    await expect.poll(() => site.inputValue('#username')).toBe(BANK.username);
    expect(await site.inputValue('#password')).toBe(BANK.password);
    await site.close();
  });

  it('fills nothing through the command on a look-alike host or the http page of an https item', async () => {
    for (const url of [https('bank.test.evil.test', '/login'), world.sites.http('bank.test', '/login')]) {
      const site = await world.openSite(url);
      await pressFillShortcut(site);
      await site.waitForTimeout(1000);
      expect(await fieldValues(site)).toEqual(['', '']);
      await site.close();
    }
  });
});

describe('match rules per web address', () => {
  it('fills by an address’s own rule: the page its expression names only, and never on the address marked never', async () => {
    const named = await world.openSite(https('mail.test', '/login'));
    await pressFillShortcut(named);
    await expect.poll(() => named.inputValue('#username')).toBe(MAIL.username);
    await named.close();
    // The extension's default (base domain) would take both; the item's own rules refuse them.
    for (const url of [https('www.mail.test', '/login'), https('old-mail.test', '/login')]) {
      const site = await world.openSite(url);
      await pressFillShortcut(site);
      await site.waitForTimeout(1000);
      expect(await fieldValues(site)).toEqual(['', '']);
      await site.close();
    }
  });
});

describe('one-time codes', () => {
  it('fills the current TOTP code into the next page’s one-time-code field on the next fill', async () => {
    const site = await openReady(https('bank.test', '/mfa-login'));
    expect(await fillFromPopup(site, BANK.name)).toEqual({ filled: 2 });
    await submit(site, 'Sign in', /\/otp/);
    // The code is filled only on a gesture too: nothing on the page's load.
    await site.waitForTimeout(500);
    expect(await site.inputValue('#code')).toBe('');

    await pressFillShortcut(site);
    await expect.poll(() => site.inputValue('#code')).not.toBe('');
    const code = await site.inputValue('#code');
    expect([totpNow(BANK.totp), totpNow(BANK.totp, Date.now() - 30_000)]).toContain(code);
    await site.close();
  });
});

describe('cards', () => {
  it('fills a card into a checkout form’s cc-* fields from the popup’s Fill button', async () => {
    const site = await openReady(https('shop.test', '/checkout'));
    const popup = await world.browser.openPopup(site);
    await popup.getByRole('button', { name: `Fill ${CARD.name}` }).click();
    await popup
      .getByRole('status')
      .filter({ hasText: `Filled ${CARD.name}.` })
      .waitFor();
    expect(await site.inputValue('#cc-name')).toBe('Ada Lovelace');
    expect(await site.inputValue('#cc-number')).toBe('4111111111111111');
    expect(await site.inputValue('#cc-exp')).toBe('07/31');
    expect(await site.inputValue('#cc-csc')).toBe('737');
    expect(await site.inputValue('#coupon')).toBe('');
    await Promise.all([popup.close(), site.close()]);
  });

  it('chooses the expiry month and year in a checkout form’s selects', async () => {
    const site = await openReady(https('shop.test', '/checkout?expiry=split'));
    expect(await fillFromPopup(site, CARD.name)).toEqual({ filled: 5 });
    expect(await site.inputValue('#cc-exp-month')).toBe('07');
    expect(await site.inputValue('#cc-exp-year')).toBe('2031');
    await site.close();
  });

  it('fills no card into an http page or a form with an invisible card field', async () => {
    const plain = await openReady(world.sites.http('shop.test', '/checkout'));
    expect(await fillFromPopup(plain, CARD.name)).toEqual({ filled: 0, refused: 'Cards are filled only into https pages.' });
    expect((await fieldValues(plain)).every((value) => value === '')).toBe(true);
    await plain.close();

    const tiny = await openReady(https('shop.test', '/checkout?tiny=1'));
    expect(await fillFromPopup(tiny, CARD.name)).toEqual({ filled: 0, refused: 'A card field is not visible.' });
    expect((await fieldValues(tiny)).every((value) => value === '')).toBe(true);
    await tiny.close();
  });
});
