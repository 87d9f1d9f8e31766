import type { Page } from 'playwright-core';
import { apiPaths } from '@lockit/contract';
import { describe, expect, it } from 'vitest';
import { header, newAccount, signIn, signOut, signUpViaApi } from './support/journeys';
import { expectNoAxeViolations } from './support/axe';
import { useE2e } from './support/setup';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

/** How many entries this browser's offline copy holds (IndexedDB read in the page), or null for none. */
function copiedEntries(page: Page): Promise<number | null> {
  return page.evaluate(
    () =>
      new Promise<number | null>((resolve, reject) => {
        const open = indexedDB.open('lockit-offline');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onupgradeneeded = () => open.result.createObjectStore('copies');
        open.onsuccess = () => {
          const database = open.result;
          const all = database.transaction('copies', 'readonly').objectStore('copies').getAll();
          all.onsuccess = () => {
            database.close();
            const copies = all.result as { entries: unknown[] }[];
            resolve(copies.length === 0 ? null : copies[0]!.entries.length);
          };
          all.onerror = () => reject(all.error ?? new Error('read failed'));
        };
      }),
  );
}

async function signedInOnVault(account: { username: string; password: string }) {
  const context = await e2e.newContext();
  const page = await context.newPage();
  await signIn(page, account.username, account.password);
  await openVault(page);
  return { context, page };
}

describe('offline copy and live sync', () => {
  it('two browsers of one account: an add, an edit and a delete in one appear in the other within 1 s, without a reload', async () => {
    const account = newAccount('live');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const first = await signedInOnVault(account);
    const second = await signedInOnVault(account);
    // Both tabs follow the stream before anything changes.
    await new Promise((resolve) => setTimeout(resolve, 500));

    await addEntry(first.page, { service: 'Live Bank', username: 'ada', password: 'first-secret' });
    const added = Date.now();
    await rowOf(second.page, 'Live Bank').waitFor({ timeout: 1_000 });
    const addSeen = Date.now() - added;

    await rowOf(first.page, 'Live Bank').getByRole('button', { name: 'Edit Live Bank' }).click();
    const dialog = first.page.getByRole('dialog', { name: 'Edit Password' });
    await dialog.getByLabel('Username').fill('ada.lovelace');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const edited = Date.now();
    await rowOf(second.page, 'Live Bank').getByText('ada.lovelace').waitFor({ timeout: 1_000 });
    const editSeen = Date.now() - edited;

    await rowOf(first.page, 'Live Bank').getByRole('button', { name: 'Delete Live Bank' }).click();
    const confirm = first.page.getByRole('dialog').filter({ hasText: 'Are you sure you want to delete this password?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowOf(first.page, 'Live Bank').count()).toBe(0);
    const deleted = Date.now();
    await expect.poll(() => rowOf(second.page, 'Live Bank').count(), { timeout: 1_000, interval: 50 }).toBe(0);
    const deleteSeen = Date.now() - deleted;

    console.info(`live sync: add ${addSeen} ms, edit ${editSeen} ms, delete ${deleteSeen} ms`);
    await first.context.close();
    await second.context.close();
  });

  it('a vault opened from its list follows changes from the list’s cursor, without reading the vault a second time', async () => {
    const account = newAccount('cursor');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const first = await signedInOnVault(account);
    await addEntry(first.page, { service: 'Cursor Bank', username: 'ada', password: 'cursor-secret' });

    const context = await e2e.newContext();
    const page = await context.newPage();
    const catchUps: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === apiPaths.vaultChanges) catchUps.push(url.searchParams.get('since') ?? '');
    });
    await signIn(page, account.username, account.password);
    await openVault(page);
    await rowOf(page, 'Cursor Bank').waitFor();
    // The stream's first event makes the tab catch up: from the list's cursor, not from 0.
    await expect.poll(() => catchUps.length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(catchUps).not.toContain('0');

    await rowOf(first.page, 'Cursor Bank').getByRole('button', { name: 'Edit Cursor Bank' }).click();
    const dialog = first.page.getByRole('dialog', { name: 'Edit Password' });
    await dialog.getByLabel('Username').fill('ada.lovelace');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await rowOf(page, 'Cursor Bank').getByText('ada.lovelace').waitFor({ timeout: 2_000 });
    expect(catchUps).not.toContain('0');
    await first.context.close();
    await context.close();
  });

  it('Profile shows the vault state each browser verified, the same number and code on two browsers of one account', async () => {
    const account = newAccount('fingerprint');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const first = await signedInOnVault(account);
    const second = await signedInOnVault(account);
    await addEntry(first.page, { service: 'Print Bank', username: 'ada', password: 'print-secret' });
    await rowOf(second.page, 'Print Bank').waitFor({ timeout: 2_000 });

    const fingerprintIn = async (page: Page) => {
      await header(page).getByRole('link', { name: 'Profile' }).first().click();
      const section = page.getByRole('region', { name: 'Vault state' });
      const shown = section.getByText(/^This browser verified your vault at \d+ · [0-9A-F]{4} [0-9A-F]{4}\.$/);
      await shown.waitFor();
      return shown.innerText();
    };
    const inFirst = await fingerprintIn(first.page);
    expect(await fingerprintIn(second.page)).toBe(inFirst);
    await expectNoAxeViolations(second.page, 'Profile with the vault state');
    // The add's state at least: the first state (1) came with the empty vault's first load.
    expect(Number(/at (\d+) · /.exec(inFirst)?.[1])).toBeGreaterThanOrEqual(2);

    // A browser that has not opened the vault says how to see it, and makes nothing up.
    const third = await e2e.newContext();
    const page = await third.newPage();
    await signIn(page, account.username, account.password);
    await page.goto('/profile');
    await page
      .getByRole('region', { name: 'Vault state' })
      .getByText('Open your vault in this tab to see the state this browser verified.')
      .waitFor();
    await first.context.close();
    await second.context.close();
    await third.close();
  });

  it('keeps an encrypted copy in IndexedDB after a change, and logout erases it', async () => {
    const account = newAccount('erase');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const { context, page } = await signedInOnVault(account);
    await addEntry(page, { service: 'Copied Site', username: 'ada', password: 'copied-secret' });
    await expect.poll(() => copiedEntries(page), { timeout: 5_000 }).toBe(1);
    const stored = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open('lockit-offline');
          open.onsuccess = () => {
            const all = open.result.transaction('copies').objectStore('copies').getAll();
            all.onsuccess = () => {
              open.result.close();
              resolve(JSON.stringify(all.result));
            };
          };
        }),
    );
    for (const plain of ['Copied Site', 'copied-secret', account.password]) expect(stored).not.toContain(plain);

    await signOut(page);
    expect(await copiedEntries(page)).toBeNull();
    await context.close();
  });

  // Last in the file: it stops the server.
  it('with the server process stopped, a reload unlocks from the copy within 10 s and says it is offline', async () => {
    const account = newAccount('down');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const { context, page } = await signedInOnVault(account);
    await addEntry(page, { service: 'Kept Offline', username: 'ada', password: 'offline-secret' });
    await expect.poll(() => copiedEntries(page), { timeout: 5_000 }).toBe(1);
    // The app's service worker serves the shell once the server is gone.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    await e2e.server.stop();
    const started = Date.now();
    await page.reload();
    await page.getByText('Offline: Lockit cannot reach your server').first().waitFor({ timeout: 10_000 });
    await page.getByLabel('Master Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await rowOf(page, 'Kept Offline').waitFor({ timeout: 10_000 });
    const elapsed = Date.now() - started;
    await page.getByRole('status').filter({ hasText: 'kept encrypted on this device' }).waitFor();
    console.info(`server stopped: reload to the unlocked copy in ${elapsed} ms`);
    expect(elapsed).toBeLessThan(10_000);
    // Failed requests to the stopped server are the point of this test.
    e2e.errors.splice(0);
    await context.close();
  });
});
