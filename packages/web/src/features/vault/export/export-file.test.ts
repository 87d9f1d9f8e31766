import { readBackupEnvelope, type BackupContents } from '@lockit/transfer';
import { describe, expect, it } from 'vitest';
import { buildExportFile, fileNameOf } from './export-file';

const contents: BackupContents = {
  app: 'lockit',
  version: 1,
  exportedAt: '2025-01-31T12:00:00.000Z',
  includesTrash: false,
  folders: [],
  items: (['login', 'note', 'card'] as const).map((type) => ({
    type,
    name: `A ${type}`,
    username: '',
    password: type === 'login' ? 'pw' : '',
    urls: [],
    notes: '',
    totp: '',
    fields: [],
    card: type === 'card' ? { holder: 'A', brand: 'Visa', number: '4111', code: '1', expMonth: '1', expYear: '2030' } : null,
    identity: null,
    tags: [],
    folder: null,
    favorite: false,
    createdAt: null,
    updatedAt: null,
    trashedAt: null,
    history: [],
  })),
};

describe('export files', () => {
  it('names each file for its format and the local day', () => {
    const day = new Date(2025, 0, 9, 23, 30);
    expect(fileNameOf('backup', day)).toBe('lockit-backup-2025-01-09.json');
    // A backup with files is binary (format version 2): not named as JSON.
    expect(fileNameOf('backup', day, true)).toBe('lockit-backup-2025-01-09.lockit');
    expect(fileNameOf('bitwarden-json', day)).toBe('lockit-bitwarden-2025-01-09.json');
    expect(fileNameOf('bitwarden-csv', day)).toBe('lockit-bitwarden-2025-01-09.csv');
    expect(fileNameOf('generic-csv', day)).toBe('lockit-export-2025-01-09.csv');
  });

  it('counts the cards Bitwarden’s CSV cannot hold', async () => {
    const file = await buildExportFile('bitwarden-csv', contents, { backupPassword: '' });
    expect(file.leftOut).toBe(1);
    expect(file.text.split('\r\n')).toHaveLength(3);
    expect(file.type).toBe('text/csv');
  });

  it('writes the plain Bitwarden JSON with every item, cards included', async () => {
    const file = await buildExportFile('bitwarden-json', contents, { backupPassword: '' });
    expect((JSON.parse(file.text) as { items: { type: number }[] }).items.map((item) => item.type)).toEqual([1, 2, 3]);
  });

  it('seals the backup at Lockit’s default Argon2id settings (e2e/export.test.ts opens one)', async () => {
    const file = await buildExportFile('backup', contents, { backupPassword: 'a long backup password' });
    expect(readBackupEnvelope(file.text)).toMatchObject({
      format: 'lockit-backup',
      version: 1,
      kdf: { algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 },
      cipher: { algorithm: 'AES-256-GCM' },
    });
  });
});
