import { addSealed, loginOverview, sealItem } from '@lockit/test-support';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, signInByPopup, type ExtensionWorld } from './support/extension-world';

/** Enough items that rendering them all would show: the popup must render the rows in view only. */
const MANY = 3_000;
const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-results/extension');
const BANK = { name: 'Birch Bank', username: 'ada', password: 'bank-pass-1', urls: ['https://bank.test'] };
const nameOf = (n: number) => `Item ${String(n).padStart(4, '0')}`;
const LAST = nameOf(MANY - 1);

let world: ExtensionWorld;

beforeAll(async () => {
  world = await startWorld([BANK]);
  const { owner } = world;
  await addSealed(owner.client, MANY, (n) =>
    sealItem(owner.vaultKey, {
      serviceName: nameOf(n),
      username: `user${n}@example.com`,
      password: `pass-${n}`,
      overview: loginOverview({ urls: [] }),
    }),
  );
  await signInByPopup(world);
});

afterAll(async () => {
  await world?.close();
});

const list = (popup: Page) => popup.getByTestId('item-list');
const renderedRows = (popup: Page) => list(popup).locator('li.item').count();

describe('the popup’s list of a large vault', () => {
  it('lists every item but renders only the rows in view; scrolling to the end shows the last item', async () => {
    const popup = await world.browser.openPopup();
    await list(popup).getByText(nameOf(0), { exact: true }).waitFor();
    // Every item is listed (none capped; the first page painted first is followed by the rest),
    // though only a screenful of rows is in the DOM.
    await expect.poll(() => list(popup).locator('li.item').first().getAttribute('aria-setsize')).toBe(String(MANY + 1));
    expect(await renderedRows(popup)).toBeLessThan(20);
    expect(await list(popup).getByText(LAST, { exact: true }).count()).toBe(0);

    await list(popup).evaluate((box) => box.scrollTo({ top: box.scrollHeight }));
    await list(popup).getByText(LAST, { exact: true }).waitFor();
    await popup.screenshot({ path: `${SCREENSHOTS}/10-long-list-end.png` });
    expect(await renderedRows(popup)).toBeLessThan(20);
    expect(await list(popup).getByText(nameOf(0), { exact: true }).count()).toBe(0);
    await popup.close();
  });

  it('is walked by Tab past the first screenful, copies with Enter, and keeps the focused row when scrolled away', async () => {
    const popup = await world.browser.openPopup();
    await list(popup).getByText(nameOf(0), { exact: true }).waitFor();
    await popup.getByLabel('Search the vault').focus();
    // Search, Lock, then two buttons a row (User, Pass; no Fill without a tab): 39 presses reach row 19's Pass.
    for (let press = 0; press < 39; press++) await popup.keyboard.press('Tab');
    const focused = () =>
      popup.evaluate(() => {
        const button = document.activeElement;
        return {
          label: button?.getAttribute('aria-label') ?? '',
          place: Number(button?.closest('li')?.getAttribute('aria-posinset') ?? 0),
          scrolled: document.querySelector('[data-testid="item-list"]')?.scrollTop ?? 0,
        };
      });
    const reached = await focused();
    // Birch Bank is row 1: the 19th row is Item 0017, its Pass button.
    expect(reached).toMatchObject({ label: `Copy password of ${nameOf(17)}`, place: 19 });
    expect(reached.scrolled).toBeGreaterThan(0);
    expect(await renderedRows(popup)).toBeLessThan(20);

    await popup.keyboard.press('Enter');
    await popup
      .getByRole('status')
      .filter({ hasText: `Password of ${nameOf(17)} copied.` })
      .waitFor();
    await popup.keyboard.press('Shift+Tab');
    expect((await focused()).label).toBe(`Copy user name of ${nameOf(17)}`);

    // Scrolled far away, the focused row stays rendered and focused, and Tab goes on from it.
    await list(popup).evaluate((box) => box.scrollTo({ top: box.scrollHeight }));
    await list(popup).getByText(LAST, { exact: true }).waitFor();
    expect((await focused()).label).toBe(`Copy user name of ${nameOf(17)}`);
    await popup.keyboard.press('Tab');
    expect((await focused()).label).toBe(`Copy password of ${nameOf(17)}`);
    await popup.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ label: `Copy user name of ${nameOf(18)}`, place: 20 });
    await popup.close();
  });

  it('asks for the first page before React has mounted, then once for the whole list', async () => {
    const popup = await world.browser.context.newPage();
    // Before the popup's own script: every message it sends is noted, with whether React had drawn anything yet.
    await popup.addInitScript(() => {
      const sent: Array<{ type: string; limit?: number; mounted: boolean }> = [];
      (window as unknown as { sent: typeof sent }).sent = sent;
      const original = chrome.runtime.sendMessage.bind(chrome.runtime) as (message: unknown) => Promise<unknown>;
      (
        chrome.runtime as unknown as { sendMessage: (message: { type: string; limit?: number }) => Promise<unknown> }
      ).sendMessage = (message) => {
        sent.push({
          type: message.type,
          limit: message.limit,
          mounted: document.getElementById('root')?.hasChildNodes() ?? false,
        });
        return original(message);
      };
    });
    await popup.setViewportSize({ width: 360, height: 540 });
    await popup.goto(`chrome-extension://${world.browser.extensionId}/popup.html`);
    await expect.poll(() => list(popup).locator('li.item').first().getAttribute('aria-setsize')).toBe(String(MANY + 1));
    const sent = await popup.evaluate(() => (window as unknown as { sent: Array<{ type: string }> }).sent);
    expect(sent.filter((message) => message.type === 'items')).toEqual([
      { type: 'items', limit: 40, mounted: false },
      { type: 'items', mounted: true },
    ]);
    expect(sent.find((message) => message.type === 'status')).toEqual({ type: 'status', mounted: false });
    await popup.close();
  });

  it('fills the tab’s item with Enter from the keyboard', async () => {
    const site = await world.openSite(world.sites.https('bank.test', '/login'));
    const popup = await world.browser.openPopup(site);
    await popup.getByRole('region', { name: 'For this site' }).getByText(BANK.name).waitFor();
    await popup.getByLabel('Search the vault').focus();
    // Search, Lock, then the site's row: Fill first.
    await popup.keyboard.press('Tab');
    await popup.keyboard.press('Tab');
    expect(await popup.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Fill ${BANK.name}`);
    await popup.keyboard.press('Enter');
    await popup
      .getByRole('status')
      .filter({ hasText: `Filled ${BANK.name}.` })
      .waitFor();
    expect(await site.inputValue('#username')).toBe(BANK.username);
    await Promise.all([popup.close(), site.close()]);
  });
});
