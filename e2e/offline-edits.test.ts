import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newAccount, signIn, signUpViaApi } from './support/journeys';
import { useE2e } from './support/setup';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

/** Everything this browser keeps for offline use (copies and queued writes), as stored. */
function storedOffline(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('lockit-offline');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const database = open.result;
          const names = Array.from(database.objectStoreNames);
          const transaction = database.transaction(names, 'readonly');
          const all = names.map((name) => transaction.objectStore(name).getAll());
          transaction.oncomplete = () => {
            database.close();
            resolve(JSON.stringify(all.map((request) => request.result as unknown)));
          };
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

/** Edits the entry's user name through the Edit Password dialog. */
async function editUsername(page: Page, service: string, username: string) {
  await rowOf(page, service)
    .getByRole('button', { name: `Edit ${service}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Edit Password' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const waiting = (page: Page, service: string) => rowOf(page, service).getByText('Waiting to sync');

/** Goes offline once this tab's copy is saved and the service worker can serve the app. */
async function goOffline(context: BrowserContext, page: Page) {
  await expect.poll(async () => (await storedOffline(page)).includes('"vaultState"'), { timeout: 5_000 }).toBe(true);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await context.setOffline(true);
}

describe('changes made offline', () => {
  it('queues an add and an edit sealed, shows them waiting across a reload, and sends them once online', async () => {
    const account = newAccount('queue');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const { context, page } = await signedInOnVault(account);
    await addEntry(page, { service: 'Harbor Bank', username: 'ada', password: 'harbor-secret' });
    await goOffline(context, page);

    await editUsername(page, 'Harbor Bank', 'ada.offline');
    await addEntry(page, { service: 'Offline Cafe', username: 'grace', password: 'cafe-secret' });
    await waiting(page, 'Harbor Bank').waitFor();
    await waiting(page, 'Offline Cafe').waitFor();
    await page.getByRole('status').filter({ hasText: '2 changes are waiting to sync' }).waitFor();
    const stored = await storedOffline(page);
    for (const plain of ['ada.offline', 'Offline Cafe', 'grace', 'cafe-secret', account.password])
      expect(stored).not.toContain(plain);

    // Closed and opened again without a server: the queued changes are still shown over the copy.
    await page.reload();
    await page.getByText('Offline: Lockit cannot reach your server').first().waitFor({ timeout: 10_000 });
    await page.getByLabel('Master Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await waiting(page, 'Offline Cafe').waitFor({ timeout: 10_000 });
    await rowOf(page, 'Harbor Bank').getByText('ada.offline').waitFor();
    await waiting(page, 'Harbor Bank').waitFor();

    const back = Date.now();
    await context.setOffline(false);
    await expect.poll(() => page.getByText('Waiting to sync').count(), { timeout: 20_000 }).toBe(0);
    console.info(`offline queue: 2 changes sent ${Date.now() - back} ms after the browser was online again`);

    const other = await signedInOnVault(account);
    await rowOf(other.page, 'Offline Cafe').waitFor();
    await rowOf(other.page, 'Harbor Bank').getByText('ada.offline').waitFor();
    // Requests refused while offline are the point of this test.
    e2e.errors.splice(0);
    await other.context.close();
    await context.close();
  });

  it('a change made offline that meets a newer version opens the conflict view with both versions', async () => {
    const account = newAccount('qconf');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const first = await signedInOnVault(account);
    await addEntry(first.page, { service: 'Fjord Mail', username: 'start', password: 'fjord-secret' });
    const second = await signedInOnVault(account);
    await rowOf(second.page, 'Fjord Mail').waitFor();

    await goOffline(first.context, first.page);
    await editUsername(first.page, 'Fjord Mail', 'mine-offline');
    await waiting(first.page, 'Fjord Mail').waitFor();
    await editUsername(second.page, 'Fjord Mail', 'theirs-online');

    await first.context.setOffline(false);
    const conflict = first.page.getByRole('dialog').filter({ hasText: 'Both versions, field by field' });
    await conflict.waitFor({ timeout: 20_000 });
    await conflict.getByText('mine-offline').first().waitFor();
    await conflict.getByText('theirs-online').first().waitFor();
    await conflict.getByRole('button', { name: /Keep mine/ }).click();
    await conflict.waitFor({ state: 'hidden' });
    await expect.poll(() => first.page.getByText('Waiting to sync').count(), { timeout: 20_000 }).toBe(0);
    await rowOf(second.page, 'Fjord Mail').getByText('mine-offline').waitFor({ timeout: 5_000 });
    e2e.errors.splice(0);
    await first.context.close();
    await second.context.close();
  });
});
