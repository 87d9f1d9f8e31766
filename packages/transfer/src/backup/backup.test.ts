import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { sampleVault, TEST_KDF } from '../../test/fixtures/sample-vault';
import { ImportFileError, ImportPasswordError } from '../import-format';
import { passwordHistoryOf } from './backup-contents';
import { headerAad, type BackupEnvelope } from './backup-envelope';
import { deriveOnThisThread } from './backup-keys';
import { fromBase64, toBase64 } from './base64';
import { BACKUP_ALTERED_MESSAGE, openBackup } from './open-backup';
import { backupSealer, sealBackup } from './seal-backup';

const PASSWORD = 'correct horse battery staple';

/** Argon2id runs per seal and per open: the tests share one sealed file where they can. */
let shared: Promise<string> | undefined;
function sealed(): Promise<string> {
  shared ??= sealBackup(sampleVault(), PASSWORD, { kdf: TEST_KDF });
  return shared;
}

/** Each test derives a key or two with Argon2id, on a machine that may be busy. */
const SLOW = { timeout: 30_000 };

function edit(text: string, change: (envelope: BackupEnvelope) => void): string {
  const envelope = JSON.parse(text) as BackupEnvelope;
  change(envelope);
  return JSON.stringify(envelope);
}

function flipLastByte(base64: string): string {
  const bytes = fromBase64(base64);
  bytes[bytes.length - 1]! ^= 1;
  return toBase64(bytes);
}

describe('Lockit backup', SLOW, () => {
  it('opens with its password to exactly the contents sealed, history and Trash included', async () => {
    const text = await sealed();
    await expect(openBackup(text, PASSWORD)).resolves.toEqual(sampleVault());
  });

  it('writes the documented envelope: the header readable, the params and a fresh salt and nonce inside', async () => {
    const [a, b] = [
      JSON.parse(await sealed()) as BackupEnvelope,
      JSON.parse(await sealBackup(sampleVault(), PASSWORD, { kdf: TEST_KDF })) as BackupEnvelope,
    ];
    expect(Object.keys(a)).toEqual(['format', 'version', 'kdf', 'cipher', 'keyCheck', 'ciphertext']);
    expect(a).toMatchObject({
      format: 'lockit-backup',
      version: 1,
      kdf: { algorithm: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 },
      cipher: { algorithm: 'AES-256-GCM' },
    });
    expect(fromBase64(a.kdf.salt)).toHaveLength(16);
    expect(fromBase64(a.cipher.nonce)).toHaveLength(12);
    expect(a.kdf.salt).not.toBe(b.kdf.salt);
    expect(a.cipher.nonce).not.toBe(b.cipher.nonce);
    expect(a.ciphertext).not.toContain('alice');
  });

  it('opens the example of docs/backup-format.md (also opened there by an independent Python decrypter)', async () => {
    const example = readFileSync(new URL('../../test/fixtures/example-backup.json', import.meta.url), 'utf8');
    const contents = await openBackup(example, 'correct horse battery staple');
    expect(contents.items.map((item) => [item.name, item.username, item.password, item.folder])).toEqual([
      ['Example', 'alice', 'hunter2', 'Work'],
    ]);
  });

  it('binds the header as the documented bytes', () => {
    const aad = headerAad({
      format: 'lockit-backup',
      version: 1,
      kdf: { algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4, salt: 'AAECAwQFBgcICQoLDA0ODw==' },
      cipher: { algorithm: 'AES-256-GCM', nonce: 'AAECAwQFBgcICQoL' },
    });
    expect(new TextDecoder().decode(aad)).toBe(
      'lockit-backup|1|argon2id|65536|3|4|AAECAwQFBgcICQoLDA0ODw==|AES-256-GCM|AAECAwQFBgcICQoL',
    );
  });

  it('says a wrong password is wrong, and asks for a missing one', async () => {
    const text = await sealed();
    await expect(openBackup(text, 'not the password at all')).rejects.toEqual(new ImportPasswordError('wrong'));
    await expect(openBackup(text, undefined)).rejects.toEqual(new ImportPasswordError('missing'));
  });

  it('refuses a changed ciphertext, nonce or header with a message saying the file was changed', async () => {
    const text = await sealed();
    const altered = [
      edit(text, (e) => (e.ciphertext = flipLastByte(e.ciphertext))),
      edit(text, (e) => (e.cipher.nonce = flipLastByte(e.cipher.nonce))),
    ];
    for (const file of altered) await expect(openBackup(file, PASSWORD)).rejects.toThrow(BACKUP_ALTERED_MESSAGE);
  });

  it('treats changed KDF settings inside the policy as a key that no longer matches', async () => {
    const text = await sealed();
    const file = edit(text, (e) => (e.kdf.iterations = 3));
    await expect(openBackup(file, PASSWORD)).rejects.toBeInstanceOf(ImportPasswordError);
  });

  it('refuses KDF settings under the sign-in floor or over its ceiling before deriving any key', async () => {
    const text = await sealed();
    const derive = vi.fn(deriveOnThisThread);
    const weak = edit(text, (e) => (e.kdf.memoryKiB = 1024));
    await expect(openBackup(weak, PASSWORD, { derive })).rejects.toThrow(
      /weaker than Lockit allows \(memory 1024 KiB, minimum 19456 KiB\)/,
    );
    const heavy = edit(text, (e) => (e.kdf.iterations = 50));
    await expect(openBackup(heavy, PASSWORD, { derive })).rejects.toThrow(/heavier than Lockit allows \(passes 50, maximum 10\)/);
    expect(derive).not.toHaveBeenCalled();
  });

  it('names what is wrong with a file that is not a backup or is damaged', async () => {
    const text = await sealed();
    await expect(openBackup('name,url\n', PASSWORD)).rejects.toThrow('This file is not a Lockit backup: it is not JSON.');
    await expect(openBackup('{"format":"other"}', PASSWORD)).rejects.toThrow(/no "lockit-backup" format/);
    await expect(
      openBackup(
        edit(text, (e) => ((e as { version: number }).version = 2)),
        PASSWORD,
      ),
    ).rejects.toThrow(/format version 2, newer than this Lockit reads/);
    await expect(
      openBackup(
        edit(text, (e) => (e.kdf.salt = 'AAAA')),
        PASSWORD,
      ),
    ).rejects.toThrow(/salt must be 16 bytes/);
    await expect(
      openBackup(
        edit(text, (e) => ((e.cipher as { algorithm: string }).algorithm = 'AES-128-CBC')),
        PASSWORD,
      ),
    ).rejects.toThrow(ImportFileError);
  });

  it('refuses to seal under a short password or contents outside the allow-list', async () => {
    await expect(sealBackup(sampleVault(), 'short', { kdf: TEST_KDF })).rejects.toThrow(/at least 12 characters/);
    const bad = { ...sampleVault(), items: [{ ...sampleVault().items[0]!, type: 'ssh-key' }] };
    await expect(sealBackup(bad as never, PASSWORD, { kdf: TEST_KDF })).rejects.toThrow(/items.0.type/);
  });

  it('derives the key ahead of the contents with backupSealer, and seals one file with it', async () => {
    const seal = await backupSealer(PASSWORD, { kdf: TEST_KDF });
    const text = await seal(sampleVault());
    await expect(openBackup(text, PASSWORD)).resolves.toEqual(sampleVault());
    // A salt and nonce serve one file: a nonce used twice under one key would break AES-GCM.
    await expect(seal(sampleVault())).rejects.toThrow(/one file/);
    const bad = { ...sampleVault(), items: [{ ...sampleVault().items[0]!, type: 'ssh-key' }] };
    const other = await backupSealer(PASSWORD, { kdf: TEST_KDF });
    await expect(other(bad as never)).rejects.toThrow(/items.0.type/);
    await expect(backupSealer('short', { kdf: TEST_KDF })).rejects.toThrow(/at least 12 characters/);
  });
});

describe('passwordHistoryOf', () => {
  it('lists each replaced password once, newest first, dated when it was replaced', () => {
    const [bank] = sampleVault().items;
    expect(passwordHistoryOf(bank!)).toEqual([
      { password: 'older-password', changedAt: '2024-03-05T10:00:00.000Z' },
      { password: 'oldest-password', changedAt: '2024-03-03T10:00:00.000Z' },
    ]);
  });

  it('adds nothing for versions that kept the password or had none', () => {
    const [bank] = sampleVault().items;
    const versions = bank!.history.map((version) => ({ ...version, password: bank!.password }));
    versions.push({ ...versions[0]!, password: '' });
    expect(passwordHistoryOf({ password: bank!.password, history: versions })).toEqual([]);
  });
});

describe('base64', () => {
  it('round-trips large byte strings (a 10,000-item backup is tens of megabytes)', () => {
    const bytes = new Uint8Array(3 * 2 ** 20 + 1).map((_, i) => (i * 31) & 0xff);
    // Buffer.equals: vitest's deep equality walks 3 million indices far too slowly.
    expect(Buffer.from(fromBase64(toBase64(bytes))).equals(Buffer.from(bytes))).toBe(true);
  });

  it('writes what Node’s own base64 writes, for every length of tail', () => {
    for (let length = 0; length < 40; length++) {
      const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });

  it('refuses text that is not canonical padded base64', () => {
    for (const text of ['AAA', 'AA=A', 'AB==', 'AAAA ', 'AA-_']) expect(() => fromBase64(text)).toThrow(TypeError);
    expect(fromBase64('AA==')).toEqual(new Uint8Array([0]));
  });
});
