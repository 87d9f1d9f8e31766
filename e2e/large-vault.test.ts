import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { addSealed, FLOOR_KDF, loginOverview, sealItem } from '@lockit/test-support';
import { exportThroughPage } from './support/export-page';
import { createAccountViaApi, signInViaApi } from './support/hostile';
import { newAccount, signIn } from './support/journeys';
import { useE2e } from './support/setup';
import { entryRows, openVault, rowOf, savedList } from './support/vault-page';

const e2e = useE2e();

const DAMAGED = 'This entry could not be decrypted. It may have been changed on the server.';
/** Above the size from which the page opens the list in its crypto workers (crypto-worker-pool.ts). */
const SIZE = 600;
/** Decrypting 600 entries on a busy 2-core machine takes seconds, not the default poll's one. */
const SLOW = { timeout: 30_000 };
const name = (n: number) => `Harbour ${String(n).padStart(4, '0')}`;

describe('a large vault, opened by the decryption workers', () => {
  it('shows every entry, finds them, shows a tampered entry among them as damaged, and exports the others whole', async () => {
    const account = newAccount('large');
    await createAccountViaApi(e2e.server.url, e2e.smtp, account, FLOOR_KDF);
    const session = await signInViaApi(e2e.server.url, account.username, account.password);
    const item = (n: number) => ({
      serviceName: name(n),
      username: `sailor${n}@example.test`,
      password: `Pass-${n}-word`,
      overview: loginOverview({ urls: [`https://harbour${n}.example`], tags: n % 3 === 0 ? ['dock'] : [] }),
    });
    await addSealed(session.client, SIZE, (n) => sealItem(session.vaultKey, item(n)));
    // One entry whose user name is another entry's ciphertext (a field moved between entries):
    // the server stores it as given; the browser must refuse it.
    const [donor, moved] = await Promise.all([
      sealItem(session.vaultKey, item(SIZE)),
      sealItem(session.vaultKey, item(SIZE + 1)),
    ]);
    await session.client.expect(201, 'POST', apiPaths.addEntry, { ...moved, username: donor.username });

    const context = await e2e.newContext();
    const page = await context.newPage();
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await signIn(page, account.username, account.password);
    await openVault(page);

    await expect
      .poll(
        () =>
          page
            .getByRole('status')
            .filter({ hasText: /entries$/ })
            .first()
            .textContent(),
        SLOW,
      )
      .toBe(`${SIZE + 1} entries`);
    expect(workers.filter((url) => url.includes('crypto-worker')).length).toBeGreaterThanOrEqual(2);
    await expect.poll(() => savedList(page).getByText(DAMAGED).count()).toBe(1);
    await expect.poll(() => entryRows(page).first().getAttribute('aria-setsize')).toBe(String(SIZE + 1));

    await page.getByLabel('Search').fill('harbour 0599');
    await expect.poll(() => rowOf(page, name(599)).count()).toBe(1);
    await expect.poll(() => entryRows(page).count()).toBe(1);
    await page.getByLabel('Search').fill('');
    await page
      .getByRole('button', { name: /^#dock \d/ })
      .first()
      .click();
    await expect.poll(() => entryRows(page).first().getAttribute('aria-setsize')).toBe(String(SIZE / 3));

    // The export opens every entry's secrets in the same workers: all 600 passwords are in
    // the file, and the tampered entry is counted, not written.
    const csv = await exportThroughPage(page, /Spreadsheet \(CSV\)/, account.password);
    expect(csv.message).toMatch(/with 600 item\(s\)\. 1 damaged item\(s\) could not be decrypted/);
    for (const n of [0, 299, 599]) expect(csv.text).toContain(`Pass-${n}-word`);
    expect(csv.text).not.toContain(`Pass-${SIZE + 1}-word`);
    await context.close();
  });
});
