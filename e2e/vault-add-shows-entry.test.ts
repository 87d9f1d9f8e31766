import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addSealed, FLOOR_KDF, loginOverview, sealItem } from '@lockit/test-support';
import { DESKTOP, PHONE } from '@lockit/test-support/chromium';
import { createAccountViaApi, signInViaApi } from './support/hostile';
import { newAccount, signIn } from './support/journeys';
import { useE2e } from './support/setup';
import { addEntry, rowOf, savedList } from './support/vault-page';

const e2e = useE2e();

/** Several screens of rows at either width, all sorting before the entry the test adds. */
const SIZE = 80;
const nameOf = (n: number) => `Harbour ${String(n).padStart(3, '0')}`;
const ADDED = { service: 'Zephyr Mail', username: 'ada', password: 'zephyr-Secret-77' };

/** Whether the row's box lies within the list's scrolled viewport, and within the window. */
async function rowInView(page: Page, service: string): Promise<boolean> {
  const list = await page.getByTestId('vault-list').boundingBox();
  const row = await rowOf(page, service).boundingBox();
  const window = page.viewportSize();
  if (list === null || row === null || window === null) return false;
  const within = (top: number, bottom: number) => row.y >= top - 0.5 && row.y + row.height <= bottom + 0.5;
  return within(list.y, list.y + list.height) && within(0, window.height);
}

describe('a new entry is shown once added', () => {
  it.each([
    ['1280', DESKTOP],
    ['375', PHONE],
  ])('at %s px wide, scrolls a new entry that sorts below the rows in view into view and opens it', async (_width, viewport) => {
    const account = newAccount('added');
    await createAccountViaApi(e2e.server.url, e2e.smtp, account, FLOOR_KDF);
    const session = await signInViaApi(e2e.server.url, account.username, account.password);
    await addSealed(session.client, SIZE, (n) =>
      sealItem(session.vaultKey, {
        serviceName: nameOf(n),
        username: `sailor${n}`,
        password: `Pass-${n}`,
        overview: loginOverview(),
      }),
    );

    const context = await e2e.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, account.username, account.password);
    // By address: on a phone the header's links sit in its menu. A load by address may ask to unlock.
    await page.goto('/vault');
    const unlock = page.getByRole('heading', { name: 'Unlock' });
    const first = rowOf(page, nameOf(0));
    await unlock.or(first).waitFor({ timeout: 30_000 });
    if (await unlock.isVisible()) {
      await page.getByLabel('Master Password', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Unlock' }).click();
    }
    await first.waitFor({ timeout: 30_000 });
    expect(
      await savedList(page)
        .getByText(nameOf(SIZE - 1), { exact: true })
        .count(),
    ).toBe(0);

    await addEntry(page, ADDED);

    // In the list, within its viewport and the window's, as the last of SIZE + 1 rows.
    await expect.poll(() => rowInView(page, ADDED.service)).toBe(true);
    expect(await rowOf(page, ADDED.service).getAttribute('aria-posinset')).toBe(String(SIZE + 1));
    // Opened in the item view, as a click on its row would.
    const details = page.getByRole('complementary', { name: 'Entry details' });
    expect(await details.getByRole('heading', { level: 2 }).textContent()).toBe(ADDED.service);
    // On a phone the item view covers the list; closed, it leaves the new row on screen.
    await details.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => rowInView(page, ADDED.service)).toBe(true);
    await expect.poll(() => rowOf(page, ADDED.service).isVisible()).toBe(true);
    await context.close();
  });
});
