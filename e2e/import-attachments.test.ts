import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as kdbxNamespace from 'kdbxweb';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiPaths, attachmentPaths } from '@lockit/contract';
import { createVerifiedAccount } from '@lockit/test-support';
import { signIn } from './support/journeys';
import { useE2e } from './support/setup';
import { rowOf } from './support/vault-page';

// A server whose per-file limit is 1 MB, so one file of the database is past it.
const e2e = useE2e({ serverEnv: { ATTACHMENT_MAX_FILE_MEGABYTES: '1' } });

const kdbxweb = (kdbxNamespace as unknown as { default?: typeof kdbxNamespace }).default ?? kdbxNamespace;
const PASSWORD = 'kdbx file password';

/**
 * A real KeePass database, written by kdbxweb (AES-KDF, so no Argon2 is needed to write it):
 * one entry with a protected attachment, a plain one and one past the server's limit.
 */
async function keepassWithFiles(files: Record<string, Uint8Array>): Promise<Buffer> {
  const db = kdbxweb.Kdbx.create(new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(PASSWORD)), 'Files');
  db.setKdf(kdbxweb.Consts.KdfId.Aes);
  db.header.kdfParameters?.set('R', kdbxweb.VarDictionary.ValueType.UInt64, kdbxweb.Int64.from(2000));
  const entry = db.createEntry(db.getDefaultGroup());
  entry.fields.set('Title', 'Cedar Bank');
  entry.fields.set('UserName', 'ada');
  entry.fields.set('URL', 'https://cedar.example');
  entry.fields.set('Password', kdbxweb.ProtectedValue.fromString('c3dar!'));
  for (const [name, bytes] of Object.entries(files)) {
    const buffer = new Uint8Array(bytes).buffer;
    const value = name.endsWith('.key') ? kdbxweb.ProtectedValue.fromBinary(buffer) : buffer;
    entry.binaries.set(name, await db.createBinary(value));
  }
  return Buffer.from(await db.save());
}

const details = (page: Page) => page.getByRole('region', { name: 'Entry details' }).or(page.getByLabel('Entry details'));
const filesOf = (page: Page) => details(page).getByRole('region', { name: 'Files' });

async function download(page: Page, name: string): Promise<Buffer> {
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    filesOf(page)
      .getByRole('button', { name: `Download ${name}` })
      .click(),
  ]);
  expect(saved.suggestedFilename()).toBe(name);
  return readFile((await saved.path())!);
}

describe('import with attachments', () => {
  it('imports a KeePass database whole: its files are attached, sealed, and download byte-identical; one past the limit is named', async () => {
    // Three and a bit 64 KiB chunks, a protected key file, and 1.5 MB over the server's 1 MB.
    const statement = randomBytes(200_000);
    const keyFile = randomBytes(1_000);
    const tooLarge = randomBytes(1_500_000);
    const database = await keepassWithFiles({ 'statement.pdf': statement, 'backup.key': keyFile, 'disk.iso': tooLarge });

    const account = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
    const page = await (await e2e.newContext()).newPage();
    await signIn(page, account.account.username, account.account.password);
    await page.goto('/vault/import');
    // Loaded afresh, the tab may ask to unlock first (decision 0048).
    const unlock = page.getByRole('heading', { name: 'Unlock' });
    await unlock.or(page.getByText('Drop an export file here, or')).waitFor();
    if (await unlock.isVisible()) {
      await page.getByLabel('Master Password', { exact: true }).fill(account.account.password);
      await page.getByRole('button', { name: 'Unlock' }).click();
    }
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'files.kdbx', mimeType: 'application/octet-stream', buffer: database });
    await expect.poll(() => page.getByLabel('Format', { exact: true }).inputValue()).toBe('kdbx');
    await page.getByRole('button', { name: 'Show preview' }).click();
    await page.getByLabel('File password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Show preview' }).click();
    await page.getByRole('heading', { name: /^Preview: / }).waitFor({ timeout: 30_000 });
    await page
      .getByText('1 new items, 0 updated, 0 duplicates skipped, 0 rows skipped. 3 attached files go with the items.')
      .waitFor();

    await page.getByRole('button', { name: 'Import 1 items' }).click();
    await page.getByRole('heading', { name: 'Import complete' }).waitFor({ timeout: 60_000 });
    await page.getByText(/^1 items imported from .* 2 files attached\.$/).waitFor();
    const left = page.getByRole('region', { name: 'Files not attached' }).getByRole('listitem');
    expect(await left.allInnerTexts()).toEqual(['Cedar Bank: disk.iso is larger than the limit of 1 MB per file.']);

    // The item view lists the two files and downloads each, every chunk checked, byte for byte.
    await page.goto('/vault');
    await rowOf(page, 'Cedar Bank').getByRole('button', { name: 'Cedar Bank', exact: true }).click();
    await filesOf(page).getByRole('listitem', { name: 'statement.pdf' }).waitFor({ timeout: 20_000 });
    await filesOf(page).getByRole('listitem', { name: 'backup.key' }).waitFor();
    expect(await filesOf(page).getByRole('listitem').count()).toBe(2);
    expect(Buffer.compare(await download(page, 'statement.pdf'), statement)).toBe(0);
    expect(Buffer.compare(await download(page, 'backup.key'), keyFile)).toBe(0);

    // What the server holds for the entry: two files, sealed, their names nowhere in the clear.
    const entries = await account.client.expect<{ data: Array<{ id: string }> }>(200, 'GET', apiPaths.listEntries);
    const stored = await account.client.expect<{ data: unknown[] }>(200, 'GET', attachmentPaths.list(entries.data[0]!.id));
    expect(stored.data).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toMatch(/statement|backup\.key|disk\.iso/);

    // The same file again, its item updated over the existing one: the files it already has
    // (same name and size) are not sent twice; the one past the limit is named again.
    await page.goto('/vault/import');
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'files.kdbx', mimeType: 'application/octet-stream', buffer: database });
    await expect.poll(() => page.getByLabel('Format', { exact: true }).inputValue()).toBe('kdbx');
    await page.getByRole('button', { name: 'Show preview' }).click();
    await page.getByLabel('File password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Show preview' }).click();
    await page.getByLabel('For all of them:').selectOption({ label: 'Update the existing item' });
    await page.getByRole('button', { name: /^Import / }).click();
    await page.getByRole('heading', { name: 'Import complete' }).waitFor({ timeout: 60_000 });
    await page.getByText(/1 existing items updated\. .* 0 files attached\.$/).waitFor();
    expect(
      (await account.client.expect<{ data: unknown[] }>(200, 'GET', attachmentPaths.list(entries.data[0]!.id))).data,
    ).toHaveLength(2);
    // The item still lists exactly its two files: none missing, none it does not list.
    await page.goto('/vault');
    await rowOf(page, 'Cedar Bank').getByRole('button', { name: 'Cedar Bank', exact: true }).click();
    await filesOf(page).getByRole('listitem', { name: 'statement.pdf' }).waitFor({ timeout: 20_000 });
    expect(await filesOf(page).getByRole('listitem').allInnerTexts()).toHaveLength(2);
    expect(await filesOf(page).getByRole('alert').count()).toBe(0);
  });
});
