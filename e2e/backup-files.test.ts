import AxeBuilder from '@axe-core/playwright';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachmentPaths } from '@lockit/contract';
import { createVerifiedAccount } from '@lockit/test-support';
import { openBackupFile } from '@lockit/transfer';
import { BACKUP_PASSWORD, exportThroughPage, openExportPage } from './support/export-page';
import { filesOf, openItemFiles } from './support/files-section';
import { signIn } from './support/journeys';
import { useE2e } from './support/setup';
import { addEntry, openVault } from './support/vault-page';

const e2e = useE2e();
const shots = process.env.LOCKIT_E2E_SCREENSHOTS;
/** Megabytes of the attached file: a few by default; set higher (up to 99) to try a large one by hand. */
const FILE_MB = Number(process.env.LOCKIT_E2E_BACKUP_FILE_MB ?? 3);

describe('the encrypted backup with attached files', () => {
  it('carries an attached file out of one account and into a new one, byte for byte; the undo deletes it', async () => {
    // A few megabytes: dozens of 64 KiB frames, and a last one shorter.
    const scan = randomBytes(FILE_MB * 1024 * 1024 + 12_345);
    const first = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
    const page = await (await e2e.newContext()).newPage();
    await signIn(page, first.account.username, first.account.password);
    await openVault(page);
    await addEntry(page, { service: 'Cedar Bank', username: 'ada', password: 'c3dar!' });
    await openItemFiles(page, 'Cedar Bank');
    // Handed over as files on disk: Playwright takes buffers of at most 50 MB.
    const dir = await mkdtemp(join(tmpdir(), 'lockit-backup-files-'));
    const scanPath = join(dir, 'statement 2026.pdf');
    await writeFile(scanPath, scan);
    await filesOf(page).getByLabel('Choose a file to attach').setInputFiles(scanPath);
    await filesOf(page).getByRole('listitem', { name: 'statement 2026.pdf' }).waitFor({ timeout: 60_000 });

    // The Export page says the backup includes the file; the plain formats still say they cannot.
    await openExportPage(page, first.account.password);
    const note = page.getByRole('note');
    await note.filter({ hasText: 'It includes your 1 attached file(s), encrypted under the backup password' }).waitFor();
    if (shots) await page.screenshot({ path: `${shots}/export-backup-files.png`, fullPage: true });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
    await page.getByRole('radio', { name: /Bitwarden \(JSON\)/ }).check();
    await note.filter({ hasText: 'Bitwarden (JSON) cannot carry files' }).waitFor();

    const backup = await exportThroughPage(page, /Encrypted Lockit backup/, first.account.password);
    expect(backup.name).toMatch(/^lockit-backup-\d{4}-\d{2}-\d{2}\.lockit$/);
    expect(backup.message).toContain('It includes 1 attached file(s).');
    // Nothing of the item or the file in the clear; the file opens to the very bytes.
    expect(Buffer.from(backup.bytes).includes('Cedar')).toBe(false);
    expect(Buffer.from(backup.bytes).includes(scan.subarray(0, 64))).toBe(false);
    const opened = await openBackupFile(backup.bytes, BACKUP_PASSWORD);
    expect(opened.contents.items[0]!.files).toMatchObject([{ name: 'statement 2026.pdf', size: scan.length }]);
    expect(Buffer.compare(Buffer.from(opened.files.get(0)![0]!.bytes), scan)).toBe(0);

    // Restored into a new account through the import page.
    const second = await createVerifiedAccount(e2e.server.url, e2e.smtp.inbox);
    const restore = await (await e2e.newContext()).newPage();
    await signIn(restore, second.account.username, second.account.password);
    await restore.goto('/vault/import');
    const unlock = restore.getByRole('heading', { name: 'Unlock' });
    await unlock.or(restore.getByText('Drop an export file here, or')).waitFor();
    if (await unlock.isVisible()) {
      await restore.getByLabel('Master Password', { exact: true }).fill(second.account.password);
      await restore.getByRole('button', { name: 'Unlock' }).click();
    }
    const backupPath = join(dir, backup.name);
    await writeFile(backupPath, backup.bytes);
    await restore.getByLabel('Choose a file').setInputFiles(backupPath);
    await expect.poll(() => restore.getByLabel('Format', { exact: true }).inputValue()).toBe('lockit-backup');
    await restore.getByRole('button', { name: 'Show preview' }).click();
    await restore.getByLabel('File password', { exact: true }).fill(BACKUP_PASSWORD);
    await restore.getByRole('button', { name: 'Show preview' }).click();
    await restore.getByRole('heading', { name: /^Preview: / }).waitFor({ timeout: 60_000 });
    await restore.getByText(/1 attached file goes with the items\./).waitFor();
    await restore.getByRole('button', { name: 'Import 1 items' }).click();
    await restore.getByRole('heading', { name: 'Import complete' }).waitFor({ timeout: 60_000 });
    await restore.getByText(/^1 items imported from .* 1 file attached\.$/).waitFor();

    await restore.goto('/vault');
    await openItemFiles(restore, 'Cedar Bank');
    await filesOf(restore).getByRole('listitem', { name: 'statement 2026.pdf' }).waitFor({ timeout: 20_000 });
    if (shots) await restore.screenshot({ path: `${shots}/restored-item-files.png` });
    const [download] = await Promise.all([
      restore.waitForEvent('download'),
      filesOf(restore).getByRole('button', { name: 'Download statement 2026.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('statement 2026.pdf');
    expect(Buffer.compare(await readFile((await download.path())!), scan)).toBe(0);

    // The import's undo deletes the item and its file.
    const stored = () =>
      second.client.expect<{ data: unknown[] }>(200, 'GET', attachmentPaths.all).then((answer) => answer.data.length);
    expect(await stored()).toBe(1);
    await restore.goto('/vault/import');
    await restore
      .getByRole('button', { name: /^Undo import of 1 items from / })
      .first()
      .click();
    await restore.getByRole('status').filter({ hasText: 'Import undone: 1 items removed.' }).waitFor();
    expect(await stored()).toBe(0);
    await rm(dir, { recursive: true, force: true });
  });
});
