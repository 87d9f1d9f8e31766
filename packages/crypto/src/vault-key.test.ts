import { beforeAll, describe, expect, it } from 'vitest';
import { deriveKeysFromPassword, type AccountKeys } from './account-keys';
import { CIPHERTEXT_PATTERN, formatCiphertext, parseCiphertext } from './ciphertext-format';
import { toBase64Url } from './encoding';
import { KdfParamsRejectedError, VaultKeyRejectedError } from './errors';
import type { KdfParams } from './kdf-params';
import { randomSalt } from './random';
import { FLOOR_PARAMS } from './test-support/params';
import {
  checkKeyEpoch,
  checkKeyGeneration,
  generateVaultKeyBytes,
  importVaultKey,
  unwrapVaultKey,
  vaultKeyAad,
  wrapVaultKey,
} from './vault-key';

const salt = randomSalt();
let keys: AccountKeys;
let wrongPasswordKeys: AccountKeys;
let otherUserKeys: AccountKeys;
let vaultKey: Uint8Array;
let protectedKey: string;

beforeAll(async () => {
  [keys, wrongPasswordKeys, otherUserKeys] = await Promise.all([
    deriveKeysFromPassword('correct horse battery staple', salt, FLOOR_PARAMS),
    deriveKeysFromPassword('correct horse battery stapel', salt, FLOOR_PARAMS),
    deriveKeysFromPassword('someone else', randomSalt(), FLOOR_PARAMS),
  ]);
  vaultKey = generateVaultKeyBytes();
  protectedKey = await wrapVaultKey(vaultKey, keys.wrapKey, FLOOR_PARAMS, salt);
});

async function rejection(promise: Promise<unknown>): Promise<VaultKeyRejectedError> {
  const error = await promise.then(
    () => new Error('the vault key was unwrapped'),
    (e: unknown) => e,
  );
  if (error instanceof VaultKeyRejectedError) return error;
  throw error;
}

function flipBit(text: string, part: 'iv' | 'data', index: number): string {
  const { iv, data } = parseCiphertext(text);
  const target = part === 'iv' ? iv : data;
  target[index < 0 ? target.length + index : index]! ^= 0x01;
  return formatCiphertext(iv, data);
}

describe('generateVaultKeyBytes', () => {
  it('makes 32 random bytes, different each time', () => {
    const a = generateVaultKeyBytes();
    expect(a).toHaveLength(32);
    expect(generateVaultKeyBytes()).not.toEqual(a);
  });
});

describe('vaultKeyAad', () => {
  it('is the canonical text binding algorithm, m, t, p and salt', () => {
    const s = toBase64Url(new Uint8Array(16).fill(0xfb));
    expect(vaultKeyAad({ algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 }, s)).toBe(
      `lockit/v1/vault-key|argon2id|m=65536|t=3|p=4|salt=${s}`,
    );
  });

  it('keeps the text of generation 0 as it was before generations, and appends any later one', () => {
    const s = toBase64Url(new Uint8Array(16).fill(0xfb));
    const params = { algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 } as const;
    expect(vaultKeyAad(params, s, 0)).toBe(vaultKeyAad(params, s));
    expect(vaultKeyAad(params, s, 2)).toBe(`lockit/v1/vault-key|argon2id|m=65536|t=3|p=4|salt=${s}|gen=2`);
  });
});

describe('key generations', () => {
  it('open a wrap made before generations existed (no generation given) as generation 0', async () => {
    const bytes = await unwrapVaultKey(protectedKey, keys.wrapKey, FLOOR_PARAMS, salt, 0);
    expect(bytes).toEqual(vaultKey);
  });

  it('open a wrap of generation 3 only when asked for generation 3', async () => {
    const wrapped = await wrapVaultKey(vaultKey, keys.wrapKey, FLOOR_PARAMS, salt, 3);
    expect(await unwrapVaultKey(wrapped, keys.wrapKey, FLOOR_PARAMS, salt, 3)).toEqual(vaultKey);
    for (const claimed of [0, 2, 4]) {
      const error = await rejection(unwrapVaultKey(wrapped, keys.wrapKey, FLOOR_PARAMS, salt, claimed));
      expect(error.reason).toBe('authentication');
    }
  });

  it('refuse an old wrap that a server presents as a newer generation', async () => {
    const error = await rejection(unwrapVaultKey(protectedKey, keys.wrapKey, FLOOR_PARAMS, salt, 1));
    expect(error.reason).toBe('authentication');
  });

  it.each([[-1], [1.5], ['2'], [null], [2_000_000]])('refuse the unreadable generation %j', (generation) => {
    expect(() => checkKeyGeneration(generation)).toThrow(/key generation Lockit cannot read/);
  });
});

describe('key epochs', () => {
  const params = { algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 } as const;
  const s = toBase64Url(new Uint8Array(16).fill(0xfb));

  it('keep the text of epoch 0 as it was before epochs, and append any later one after the generation', () => {
    expect(vaultKeyAad(params, s, 2, 0)).toBe(vaultKeyAad(params, s, 2));
    expect(vaultKeyAad(params, s, 2, 1)).toBe(`lockit/v1/vault-key|argon2id|m=65536|t=3|p=4|salt=${s}|gen=2|epoch=1`);
    expect(vaultKeyAad(params, s, 0, 3)).toBe(`lockit/v1/vault-key|argon2id|m=65536|t=3|p=4|salt=${s}|epoch=3`);
  });

  it('open a wrap of epoch 2 only when asked for epoch 2, at its own generation', async () => {
    const wrapped = await wrapVaultKey(vaultKey, keys.wrapKey, FLOOR_PARAMS, salt, 5, 2);
    expect(await unwrapVaultKey(wrapped, keys.wrapKey, FLOOR_PARAMS, salt, 5, 2)).toEqual(vaultKey);
    for (const claimed of [0, 1, 3]) {
      const error = await rejection(unwrapVaultKey(wrapped, keys.wrapKey, FLOOR_PARAMS, salt, 5, claimed));
      expect(error.reason).toBe('authentication');
    }
  });

  it('refuse a wrap made before epochs that a server presents as a later epoch', async () => {
    const error = await rejection(unwrapVaultKey(protectedKey, keys.wrapKey, FLOOR_PARAMS, salt, 0, 1));
    expect(error.reason).toBe('authentication');
  });

  it.each([[-1], [1.5], ['2'], [null], [2_000_000]])('refuse the unreadable epoch %j', (epoch) => {
    expect(() => checkKeyEpoch(epoch)).toThrow(/key epoch Lockit cannot read/);
  });
});

describe('wrapVaultKey and unwrapVaultKey', () => {
  it('give back the same 32 bytes', async () => {
    expect(await unwrapVaultKey(protectedKey, keys.wrapKey, FLOOR_PARAMS, salt)).toEqual(vaultKey);
  });

  it('write a v1 ciphertext the server accepts, with a fresh IV on every wrap', async () => {
    expect(protectedKey).toMatch(CIPHERTEXT_PATTERN);
    const again = await wrapVaultKey(vaultKey, keys.wrapKey, FLOOR_PARAMS, salt);
    expect(parseCiphertext(again).iv).not.toEqual(parseCiphertext(protectedKey).iv);
  });

  it('unwrap on another device after deriving again from the same password', async () => {
    const signIn = await deriveKeysFromPassword('correct horse battery staple', salt, FLOOR_PARAMS);
    expect(await unwrapVaultKey(protectedKey, signIn.wrapKey, FLOOR_PARAMS, salt)).toEqual(vaultKey);
  });

  it('refuse the wrong password', async () => {
    const error = await rejection(unwrapVaultKey(protectedKey, wrongPasswordKeys.wrapKey, FLOOR_PARAMS, salt));
    expect(error.reason).toBe('authentication');
    expect(error.message).toMatch(/master password is wrong/);
  });

  it.each<[string, Partial<KdfParams>]>([
    ['memory', { memoryKiB: FLOOR_PARAMS.memoryKiB + 1 }],
    ['passes', { iterations: FLOOR_PARAMS.iterations + 1 }],
    ['lanes', { parallelism: FLOOR_PARAMS.parallelism + 1 }],
  ])('refuse params whose %s was altered after wrapping, even with the right wrapKey', async (_what, change) => {
    const altered = { ...FLOOR_PARAMS, ...change };
    expect((await rejection(unwrapVaultKey(protectedKey, keys.wrapKey, altered, salt))).reason).toBe('authentication');
  });

  it('refuse a salt altered after wrapping, even with the right wrapKey', async () => {
    expect((await rejection(unwrapVaultKey(protectedKey, keys.wrapKey, FLOOR_PARAMS, randomSalt()))).reason).toBe(
      'authentication',
    );
  });

  it('refuse a protectedKey swapped for one made under another wrapKey', async () => {
    const foreign = await wrapVaultKey(generateVaultKeyBytes(), otherUserKeys.wrapKey, FLOOR_PARAMS, salt);
    expect((await rejection(unwrapVaultKey(foreign, keys.wrapKey, FLOOR_PARAMS, salt))).reason).toBe('authentication');
  });

  it.each<[string, 'iv' | 'data', number]>([
    ['the IV', 'iv', 0],
    ['the encrypted key', 'data', 0],
    ['the tag', 'data', -1],
  ])('refuse a flipped bit in %s', async (_what, part, index) => {
    const tampered = flipBit(protectedKey, part, index);
    expect((await rejection(unwrapVaultKey(tampered, keys.wrapKey, FLOOR_PARAMS, salt))).reason).toBe('authentication');
  });

  it('refuse a truncated protectedKey', async () => {
    const { iv, data } = parseCiphertext(protectedKey);
    const truncated = formatCiphertext(iv, data.slice(0, -1));
    expect((await rejection(unwrapVaultKey(truncated, keys.wrapKey, FLOOR_PARAMS, salt))).reason).toBe('authentication');
  });

  it('refuse text that is not a v1 ciphertext, and an unknown version', async () => {
    expect((await rejection(unwrapVaultKey('not a key', keys.wrapKey, FLOOR_PARAMS, salt))).reason).toBe('format');
    const v2 = protectedKey.replace(/^v1\./, 'v2.');
    expect((await rejection(unwrapVaultKey(v2, keys.wrapKey, FLOOR_PARAMS, salt))).reason).toBe('version');
  });

  it('open a wrap made under the old floor (m = 19 MiB, t = 2): the policy is checked before deriving', async () => {
    const legacy: KdfParams = { algorithm: 'argon2id', memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 };
    const wrapped = await wrapVaultKey(vaultKey, keys.wrapKey, legacy, salt);
    expect(await unwrapVaultKey(wrapped, keys.wrapKey, legacy, salt)).toEqual(vaultKey);
  });

  it('refuse params outside the policy before trying to unwrap', async () => {
    const weak = { ...FLOOR_PARAMS, memoryKiB: 1024 };
    await expect(unwrapVaultKey(protectedKey, keys.wrapKey, weak, salt)).rejects.toBeInstanceOf(KdfParamsRejectedError);
    await expect(wrapVaultKey(vaultKey, keys.wrapKey, weak, salt)).rejects.toBeInstanceOf(KdfParamsRejectedError);
  });

  it('refuse to wrap a key that is not 32 bytes', async () => {
    await expect(wrapVaultKey(new Uint8Array(16), keys.wrapKey, FLOOR_PARAMS, salt)).rejects.toThrow(RangeError);
  });
});

describe('importVaultKey', () => {
  it('makes a non-extractable AES-256-GCM key for encrypt and decrypt only', async () => {
    const key = await importVaultKey(vaultKey);
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    expect([...key.usages].sort()).toEqual(['decrypt', 'encrypt']);
    await expect(globalThis.crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  it.each([16, 31, 33])('refuses %i bytes', async (length) => {
    await expect(importVaultKey(new Uint8Array(length))).rejects.toThrow(RangeError);
  });
});
