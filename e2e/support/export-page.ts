import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

/** The backup password the end-to-end exports use: long, and not any account's master password. */
export const BACKUP_PASSWORD = 'a long and separate backup passphrase';

/** /vault/export, unlocking the vault first when the page asks for the master password. */
export async function openExportPage(page: Page, masterPassword: string): Promise<void> {
  await page.goto('/vault/export');
  const unlock = page.getByRole('heading', { name: 'Unlock' });
  const formats = page.getByRole('group', { name: 'Format' });
  // Generous: the machine running the suite may be busy, and the unlock runs Argon2id.
  await unlock.or(formats).waitFor({ timeout: 60_000 });
  if (await unlock.isVisible()) {
    await page.getByLabel('Master Password', { exact: true }).fill(masterPassword);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await formats.waitFor({ timeout: 60_000 });
  }
}

/**
 * Exports in `format` through the page as a person does, and returns the downloaded file and
 * the page's closing message.
 */
export async function exportThroughPage(page: Page, format: RegExp, masterPassword: string, { trash = false } = {}) {
  await openExportPage(page, masterPassword);
  await page.getByRole('radio', { name: format }).check();
  if (trash) await page.getByLabel('Include items in Trash').check();
  const backup = format.test('Encrypted Lockit backup');
  if (!backup) await page.getByLabel('I understand that this file is not protected.').check();
  await page.getByLabel('Master Password', { exact: true }).fill(masterPassword);
  if (backup) {
    await page.getByLabel('Backup password', { exact: true }).fill(BACKUP_PASSWORD);
    await page.getByLabel('Backup password again', { exact: true }).fill(BACKUP_PASSWORD);
  }
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const file = await download;
  const status = page.getByRole('status').filter({ hasText: /^Saved / });
  await status.waitFor({ timeout: 60_000 });
  const bytes = await readFile((await file.path())!);
  return {
    name: file.suggestedFilename(),
    text: bytes.toString('utf8'),
    /** The file as saved: a backup with attached files is binary (format version 2). */
    bytes: new Uint8Array(bytes),
    message: (await status.textContent()) ?? '',
  };
}
