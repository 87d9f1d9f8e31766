import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTamperingProxy, type TamperingProxy } from '@lockit/test-support';
import { PHONE } from '@lockit/test-support/chromium';
import { useE2e } from './support/setup';
import { newAccount, signIn, signUpViaApi } from './support/journeys';
import { filesOf as files, openItemFiles as openItem } from './support/files-section';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();
const shots = process.env.LOCKIT_E2E_SCREENSHOTS;
const MiB = 1024 * 1024;
/** The files of one entry, as the item view asks for them. */
const FILE_LIST = /^\/api\/attachments\/[0-9a-f-]+$/;

let proxy: TamperingProxy;

beforeAll(async () => {
  proxy = await startTamperingProxy(e2e.server.url);
});

afterAll(async () => {
  await proxy?.close();
});

const details = (page: Page) => page.getByLabel('Entry details');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function confirmDelete(page: Page) {
  await page.getByRole('dialog', { name: 'Delete file' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete file' }).waitFor({ state: 'hidden' });
}

/**
 * The item lists its files (sealed with it): a 20 MB file attached, renamed, downloaded whole,
 * deleted and brought back with the version that had it, through Trash and back; and a server
 * that withholds a listed file, or serves one the item does not list, is said plainly.
 */
describe('files listed by their item', () => {
  it('keeps a 20 MB file through rename, delete, history and Trash, and catches a server that hides or adds one', async () => {
    const account = newAccount('itemfiles');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const context = await e2e.newContext({ baseURL: proxy.url });
    const page = await context.newPage();
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Cedar Deeds', username: 'ada', password: 'c3dar!' });
    await openItem(page, 'Cedar Deeds');

    const bytes = randomBytes(20 * MiB);
    await files(page)
      .getByLabel('Choose a file to attach')
      .setInputFiles({ name: 'deed.pdf', mimeType: 'application/pdf', buffer: bytes });
    await files(page).getByRole('listitem', { name: 'deed.pdf' }).waitFor({ timeout: 60_000 });

    await files(page).getByRole('button', { name: 'Rename deed.pdf' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename file' });
    await rename.getByLabel('File name').fill('deed 2026.pdf');
    await rename.getByRole('button', { name: 'Save' }).click();
    const row = files(page).getByRole('listitem', { name: 'deed 2026.pdf' });
    await row.waitFor();
    expect(await row.textContent()).toContain('20 MB');

    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      row.getByRole('button', { name: 'Download deed 2026.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('deed 2026.pdf');
    expect(sha256(await readFile((await download.path())!))).toBe(sha256(bytes));

    // Deleted from the item, the file stays for the version before, which lists it.
    await row.getByRole('button', { name: 'Delete deed 2026.pdf' }).click();
    await confirmDelete(page);
    await files(page).getByText('No files attached.').waitFor();
    const kept = files(page).getByLabel('Files kept for earlier versions');
    await kept.getByText('deed 2026.pdf (20 MB)').waitFor();
    if (shots) await files(page).screenshot({ path: `${shots}/item-files-kept-1280.png` });

    // Restoring that version brings the file back to the item.
    await details(page).getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: /History of Cedar Deeds/ });
    const newest = history.getByRole('list', { name: 'Earlier versions' }).getByRole('listitem').first();
    await newest.getByText('Files: deed 2026.pdf').waitFor();
    expect(await newest.textContent()).toContain('Changed after this version: Files.');
    await newest.getByRole('button', { name: 'Restore this version' }).click();
    await history.waitFor({ state: 'hidden' });
    await files(page).getByRole('listitem', { name: 'deed 2026.pdf' }).waitFor();
    await expect.poll(() => kept.count()).toBe(0);

    // To Trash and back: the item keeps its file.
    await rowOf(page, 'Cedar Deeds').getByRole('button', { name: 'Delete Cedar Deeds' }).click();
    await page
      .getByRole('dialog')
      .filter({ hasText: 'Are you sure you want to delete this password?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    const filters = page.getByLabel('Filters').first();
    await filters.getByRole('button', { name: /Trash/ }).click();
    await openItem(page, 'Cedar Deeds');
    await files(page).getByRole('listitem', { name: 'deed 2026.pdf' }).waitFor();
    await rowOf(page, 'Cedar Deeds').getByRole('button', { name: 'Restore Cedar Deeds' }).click();
    await filters.getByRole('button', { name: /^All\b/ }).click();
    await openItem(page, 'Cedar Deeds');
    await files(page).getByRole('listitem', { name: 'deed 2026.pdf' }).waitFor();

    // The server withholds the file the item lists: named as missing, not "No files attached".
    proxy.rewrite({
      method: 'GET',
      path: FILE_LIST,
      rewrite: (response) => {
        (response.body as { data: unknown[] }).data = [];
      },
    });
    await page.reload();
    await openItem(page, 'Cedar Deeds');
    const missing = files(page).getByRole('listitem', { name: 'Missing file deed 2026.pdf' });
    await missing.waitFor();
    expect(await missing.getByRole('alert').textContent()).toBe(
      'Missing file: deed 2026.pdf (20 MB). The item lists this file, but the server did not serve it: it was withheld or deleted there, or its upload never finished.',
    );
    expect(await files(page).getByText('No files attached.').count()).toBe(0);
    if (shots) await page.screenshot({ path: `${shots}/item-files-missing-1280.png` });
    proxy.clearRules();

    // A file deleted for good that the server serves again is kept apart, never one of the item's.
    await page.reload();
    await openItem(page, 'Cedar Deeds');
    const before = proxy.recorded.filter((request) => request.method === 'GET' && FILE_LIST.test(request.path)).at(-1)!;
    const served = (JSON.parse(before.answer!.body) as { data: unknown[] }).data;
    await files(page).getByRole('button', { name: 'Delete deed 2026.pdf' }).click();
    await confirmDelete(page);
    await kept.getByRole('button', { name: 'Delete deed 2026.pdf for good' }).click();
    await confirmDelete(page);
    await expect.poll(() => kept.count()).toBe(0);
    // A version that listed it no longer brings it back: it is gone, not withheld.
    await details(page).getByRole('button', { name: 'History' }).click();
    await history
      .getByRole('list', { name: 'Earlier versions' })
      .getByRole('listitem')
      .filter({ hasText: 'Files: deed 2026.pdf' })
      .first()
      .getByRole('button', { name: 'Restore this version' })
      .click();
    await history.waitFor({ state: 'hidden' });
    await files(page).getByText('No files attached.').waitFor();
    expect(
      await files(page)
        .getByRole('listitem', { name: /Missing file/ })
        .count(),
    ).toBe(0);

    proxy.rewrite({
      method: 'GET',
      path: FILE_LIST,
      rewrite: (response) => {
        (response.body as { data: unknown[] }).data = served;
      },
    });
    await page.reload();
    await openItem(page, 'Cedar Deeds');
    const apart = files(page).getByRole('alert', { name: 'Files the item does not list' });
    await apart.waitFor();
    expect(await apart.textContent()).toContain(
      'The server holds a file for this item that neither the item nor its history lists.',
    );
    await files(page).getByText('No files attached.').waitFor();
    if (shots) await page.screenshot({ path: `${shots}/item-files-unlisted-1280.png` });
    await context.close();

    if (shots) {
      const phone = await e2e.newContext({ viewport: PHONE, baseURL: proxy.url });
      const small = await phone.newPage();
      await signIn(small, account.username, account.password);
      await small.getByRole('button', { name: 'Open menu' }).click();
      await small.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Vault' }).click();
      await openItem(small, 'Cedar Deeds');
      await files(small).getByRole('alert', { name: 'Files the item does not list' }).scrollIntoViewIfNeeded();
      await small.screenshot({ path: `${shots}/item-files-unlisted-375.png` });
      await phone.close();
    }
    proxy.clearRules();
  });
});
