import { describe, expect, it } from 'vitest';
import { sampleVault, TEST_KDF } from '../../test/fixtures/sample-vault';
import { transferItemOf } from '../backup/backup-contents';
import { sealBackup } from '../backup/seal-backup';
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
});
