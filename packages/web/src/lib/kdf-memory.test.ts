import { DEFAULT_KDF_PARAMS, KdfParamsRejectedError, type KdfParams } from '@lockit/crypto';
import { describe, expect, it, vi } from 'vitest';
import { FLOOR_KDF } from '@/testing/crypto-fixtures';
import { checkRememberedKdfParams, moveRememberedKdfParams, rememberKdfParams, RememberedKdfDowngradeError } from './kdf-memory';

const STRONG: KdfParams = { ...DEFAULT_KDF_PARAMS };
/** The floor before issue 15: what an old account (or a hostile server) may still answer. */
const OLD_FLOOR: KdfParams = { algorithm: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 };

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function storedEntries(): Array<[string, string]> {
  return Object.keys(window.localStorage).map((key) => [key, window.localStorage.getItem(key) ?? '']);
}

describe("this browser's memory of each account's KDF params", () => {
  it('is stored under a SHA-256 of the case-folded user name, holding numbers only, never the name', async () => {
    await rememberKdfParams('Alice', STRONG);
    expect(storedEntries()).toEqual([
      [`lockit.kdfFloor.${await sha256Hex('alice')}`, JSON.stringify({ memoryKiB: 65536, iterations: 3, parallelism: 4 })],
    ]);
    expect(JSON.stringify(storedEntries()).toLowerCase()).not.toContain('alice');
  });

  it('refuses params lower in memory, passes or lanes than remembered, naming each, as a KDF refusal', async () => {
    await rememberKdfParams('alice', STRONG);
    const refusal = checkRememberedKdfParams('alice', OLD_FLOOR);
    await expect(refusal).rejects.toBeInstanceOf(RememberedKdfDowngradeError);
    await expect(refusal).rejects.toBeInstanceOf(KdfParamsRejectedError);
    await expect(refusal).rejects.toThrow(
      'The server asked for key-derivation settings weaker than the ones this browser already used for this account (memory 19456 KiB, this browser used 65536 KiB; passes 2, this browser used 3; lanes 1, this browser used 4). Sign-in was stopped to protect your password.',
    );
    await expect(checkRememberedKdfParams('alice', { ...STRONG, parallelism: 3 })).rejects.toThrow(
      '(lanes 3, this browser used 4)',
    );
  });

  it('accepts the same or stronger params, and any params for an account it does not know', async () => {
    await rememberKdfParams('alice', STRONG);
    await expect(checkRememberedKdfParams('alice', STRONG)).resolves.toBeUndefined();
    await expect(checkRememberedKdfParams('alice', { ...STRONG, memoryKiB: 128 * 1024 })).resolves.toBeUndefined();
    await expect(checkRememberedKdfParams('bob', FLOOR_KDF)).resolves.toBeUndefined();
  });

  it('matches the account whatever the case or Unicode form of the name', async () => {
    await rememberKdfParams('alice', STRONG);
    await expect(checkRememberedKdfParams('ALICE', FLOOR_KDF)).rejects.toBeInstanceOf(RememberedKdfDowngradeError);
    await expect(checkRememberedKdfParams('ａｌｉｃｅ', FLOOR_KDF)).rejects.toBeInstanceOf(RememberedKdfDowngradeError);
  });

  it('only ever rises: remembering weaker params keeps the stronger value of each', async () => {
    await rememberKdfParams('alice', { ...FLOOR_KDF, iterations: 5 });
    await rememberKdfParams('alice', STRONG);
    await rememberKdfParams('alice', FLOOR_KDF);
    await expect(checkRememberedKdfParams('alice', STRONG)).rejects.toThrow('(passes 3, this browser used 5)');
    await expect(checkRememberedKdfParams('alice', { ...STRONG, iterations: 5 })).resolves.toBeUndefined();
  });

  it('follows the account to its new name after a rename', async () => {
    await rememberKdfParams('alice', STRONG);
    await moveRememberedKdfParams('alice', 'alicia');
    await expect(checkRememberedKdfParams('alicia', FLOOR_KDF)).rejects.toBeInstanceOf(RememberedKdfDowngradeError);
    await expect(checkRememberedKdfParams('alice', FLOOR_KDF)).resolves.toBeUndefined();
    expect(storedEntries()).toHaveLength(1);
  });

  it('ignores a record it cannot read (hand-edited or damaged) instead of refusing', async () => {
    window.localStorage.setItem(`lockit.kdfFloor.${await sha256Hex('alice')}`, '{"memoryKiB":"lots"');
    await expect(checkRememberedKdfParams('alice', FLOOR_KDF)).resolves.toBeUndefined();
    window.localStorage.setItem(`lockit.kdfFloor.${await sha256Hex('alice')}`, '{"memoryKiB":-1,"iterations":3,"parallelism":4}');
    await expect(checkRememberedKdfParams('alice', FLOOR_KDF)).resolves.toBeUndefined();
  });

  it('remembers and refuses nothing when storage is unavailable', async () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    await expect(rememberKdfParams('alice', STRONG)).resolves.toBeUndefined();
    await expect(checkRememberedKdfParams('alice', FLOOR_KDF)).resolves.toBeUndefined();
  });
});
