import { describe, expect, it } from 'vitest';
import { sampleVault, TEST_KDF } from '../../test/fixtures/sample-vault';
import { transferItemOf } from '../backup/backup-contents';
import { backupSealer, sealBackup } from '../backup/seal-backup';
import { ImportPasswordError } from '../import-format';
import { lockitBackupFormat } from './lockit-backup';

const PASSWORD = 'correct horse battery staple';
const fileOf = (text: string, name = 'lockit-backup-2024-04-01.json') => ({ name, bytes: new TextEncoder().encode(text) });

describe('lockit-backup importer', { timeout: 30_000 }, () => {
  it('is certain of a Lockit backup and not of other JSON or CSV', async () => {
    expect(lockitBackupFormat.detect(fileOf(await sealBackup(sampleVault(), PASSWORD, { kdf: TEST_KDF })))).toBe(1);
    expect(lockitBackupFormat.detect(fileOf('{"encrypted": false, "items": []}'))).toBe(0);
    expect(lockitBackupFormat.detect(fileOf('format,"lockit-backup"\n'))).toBe(0);
  });

  it('restores every item field by field, history as earlier passwords, Trash flagged', async () => {
    const text = await sealBackup(sampleVault(), PASSWORD, { kdf: TEST_KDF });
    const result = await lockitBackupFormat.parse(fileOf(text), { password: PASSWORD });
    expect(result.format).toBe('lockit-backup');
    expect(result.skipped).toEqual([]);
    expect(result.items).toEqual(sampleVault().items.map(transferItemOf));
    expect(result.items[0]!.passwordHistory.map((entry) => entry.password)).toEqual(['older-password', 'oldest-password']);
    expect(result.items.filter((item) => item.trashedAt !== undefined).map((item) => item.name)).toEqual(['Old forum']);
  });

  it('asks for the password the UI must prompt for', async () => {
    const text = await sealBackup(sampleVault(), PASSWORD, { kdf: TEST_KDF });
    await expect(lockitBackupFormat.parse(fileOf(text), {})).rejects.toEqual(new ImportPasswordError('missing'));
    await expect(lockitBackupFormat.parse(fileOf(text), { password: 'wrong password!!' })).rejects.toEqual(
      new ImportPasswordError('wrong'),
    );
  });

  it('detects a version 2 file and gives each item its attached files, in order', async () => {
    const vault = sampleVault();
    const files = [
      { name: 'scan.pdf', size: 70_000, type: 'application/pdf', createdAt: '2024-03-02T10:00:00.000Z' },
      { name: 'note.txt', size: 5, type: 'text/plain', createdAt: '2024-03-02T10:00:00.000Z' },
    ];
    const contents = { ...vault, version: 2 as const, items: [{ ...vault.items[0]!, files }, ...vault.items.slice(1)] };
    const seal = await backupSealer(PASSWORD, { kdf: TEST_KDF });
    const pieces: Uint8Array[] = [];
    const bytesOf = (size: number) => new Uint8Array(size).map((_, i) => i & 0xff);
    for await (const piece of seal.withFiles(contents, async function* ({ file }) {
      yield bytesOf(file.size);
    }))
      pieces.push(piece);
    const file = { name: 'lockit-backup-2024-04-01.lockit', bytes: new Uint8Array(Buffer.concat(pieces)) };
    expect(lockitBackupFormat.detect(file)).toBe(1);
    const result = await lockitBackupFormat.parse(file, { password: PASSWORD });
    expect(result.items[0]!.attachments).toEqual([
      { name: 'scan.pdf', bytes: bytesOf(70_000) },
      { name: 'note.txt', bytes: bytesOf(5) },
    ]);
    expect(result.items.slice(1).every((item) => item.attachments === undefined)).toBe(true);
    expect(result.items.slice(1)).toEqual(vault.items.slice(1).map(transferItemOf));
  });
});
