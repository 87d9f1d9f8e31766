import { beforeAll, describe, expect, it } from 'vitest';
import { CIPHERTEXT_PATTERN, formatCiphertext, parseCiphertext } from './ciphertext-format';
import { toBase64Url } from './encoding';
import { VaultKeyRejectedError } from './errors';
import {
  passkeyPrfInput,
  passkeyPrfInputBase64Url,
  passkeyUnlockAad,
  unwrapVaultKeyWithPasskey,
  wrapVaultKeyForPasskey,
  type PasskeyBinding,
} from './passkey-unlock';
import { randomBytes } from './random';
import { toHex } from './test-support/hex';
import { generateVaultKeyBytes } from './vault-key';

const binding: PasskeyBinding = {
  userId: '0b7a3f52-6c1e-4d2a-9f1b-3c5d7e9f1a2b',
  credentialId: toBase64Url(new Uint8Array(16).fill(0xa7)),
};
const prfOutput = randomBytes(32);
let vaultKey: Uint8Array;
let unlockKey: string;

beforeAll(async () => {
  vaultKey = generateVaultKeyBytes();
  unlockKey = await wrapVaultKeyForPasskey(vaultKey, prfOutput, binding);
});

async function rejection(promise: Promise<unknown>): Promise<VaultKeyRejectedError> {
  const error = await promise.then(
    () => new Error('the vault key was unwrapped'),
    (e: unknown) => e,
  );
  if (error instanceof VaultKeyRejectedError) return error;
  throw error;
}

describe('passkeyPrfInput', () => {
  it("is SHA-256 of 'lockit-passkey-prf-v1', the same for every passkey", async () => {
    // `printf lockit-passkey-prf-v1 | sha256sum`, computed outside this code.
    expect(toHex(await passkeyPrfInput())).toBe('49b210cf4812381e2627773a083f03190b89c015edbd0a37e3dc95388f6f4534');
    expect(await passkeyPrfInputBase64Url()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('passkeyUnlockAad', () => {
  it('binds the purpose, the account id and the canonical credential id', () => {
    expect(passkeyUnlockAad(binding)).toBe(
      `lockit/v1/passkey-unlock|user=0b7a3f52-6c1e-4d2a-9f1b-3c5d7e9f1a2b|credential=${binding.credentialId}`,
    );
  });

  it('encodes a separator inside the account id, so no id can pose as another field', () => {
    expect(passkeyUnlockAad({ ...binding, userId: 'a|credential=x' })).toContain('user=a%7Ccredential%3Dx|');
  });

  it('refuses a credential id that is not base64url, and an empty account id', () => {
    expect(() => passkeyUnlockAad({ ...binding, credentialId: 'not+base64/' })).toThrow(TypeError);
    expect(() => passkeyUnlockAad({ ...binding, userId: '' })).toThrow(TypeError);
  });
});

describe('wrapVaultKeyForPasskey and unwrapVaultKeyWithPasskey', () => {
  it('give back the same 32 bytes with the same PRF output, account and credential', async () => {
    expect(await unwrapVaultKeyWithPasskey(unlockKey, prfOutput, binding)).toEqual(vaultKey);
  });

  it('write a v1 ciphertext the contract accepts, with a fresh IV on every wrap', async () => {
    expect(unlockKey).toMatch(CIPHERTEXT_PATTERN);
    const again = await wrapVaultKeyForPasskey(vaultKey, prfOutput, binding);
    expect(parseCiphertext(again).iv).not.toEqual(parseCiphertext(unlockKey).iv);
  });

  it('refuse another credential id', async () => {
    const other = { ...binding, credentialId: toBase64Url(new Uint8Array(16).fill(0xa8)) };
    expect((await rejection(unwrapVaultKeyWithPasskey(unlockKey, prfOutput, other))).reason).toBe('authentication');
  });

  it('refuse another account id', async () => {
    const other = { ...binding, userId: '0b7a3f52-6c1e-4d2a-9f1b-3c5d7e9f1a2c' };
    const error = await rejection(unwrapVaultKeyWithPasskey(unlockKey, prfOutput, other));
    expect(error.reason).toBe('authentication');
    expect(error.message).toBe(
      "Lockit could not unlock your vault with this passkey: the server's key data failed verification.",
    );
  });

  it('refuse another PRF output (another passkey)', async () => {
    expect((await rejection(unwrapVaultKeyWithPasskey(unlockKey, randomBytes(32), binding))).reason).toBe('authentication');
  });

  it.each<[string, 'iv' | 'data', number]>([
    ['the IV', 'iv', 0],
    ['the encrypted key', 'data', 0],
    ['the tag', 'data', -1],
  ])('refuse a flipped bit in %s', async (_what, part, index) => {
    const { iv, data } = parseCiphertext(unlockKey);
    const target = part === 'iv' ? iv : data;
    target[index < 0 ? target.length + index : index]! ^= 0x01;
    const tampered = formatCiphertext(iv, data);
    expect((await rejection(unwrapVaultKeyWithPasskey(tampered, prfOutput, binding))).reason).toBe('authentication');
  });

  it('refuse text that is not a v1 ciphertext, and an unknown version', async () => {
    expect((await rejection(unwrapVaultKeyWithPasskey('not a key', prfOutput, binding))).reason).toBe('format');
    const v2 = unlockKey.replace(/^v1\./, 'v2.');
    expect((await rejection(unwrapVaultKeyWithPasskey(v2, prfOutput, binding))).reason).toBe('version');
  });

  it('refuse a PRF output or a vault key of the wrong length', async () => {
    await expect(wrapVaultKeyForPasskey(vaultKey, new Uint8Array(16), binding)).rejects.toThrow(RangeError);
    await expect(unwrapVaultKeyWithPasskey(unlockKey, new Uint8Array(33), binding)).rejects.toThrow(RangeError);
    await expect(wrapVaultKeyForPasskey(new Uint8Array(31), prfOutput, binding)).rejects.toThrow(RangeError);
  });
});

describe('the key epoch of an unlock key', () => {
  it('keeps the text of epoch 0 as it was before epochs, and appends any later one', () => {
    expect(passkeyUnlockAad({ ...binding, keyEpoch: 0 })).toBe(passkeyUnlockAad(binding));
    expect(passkeyUnlockAad({ ...binding, keyEpoch: 2 })).toBe(`${passkeyUnlockAad(binding)}|epoch=2`);
  });

  it('opens an unlock key made at epoch 1 only when asked for epoch 1', async () => {
    const atEpoch1 = await wrapVaultKeyForPasskey(vaultKey, prfOutput, { ...binding, keyEpoch: 1 });
    expect(await unwrapVaultKeyWithPasskey(atEpoch1, prfOutput, { ...binding, keyEpoch: 1 })).toEqual(vaultKey);
    for (const keyEpoch of [0, 2]) {
      const error = await rejection(unwrapVaultKeyWithPasskey(atEpoch1, prfOutput, { ...binding, keyEpoch }));
      expect(error.reason).toBe('authentication');
    }
  });

  it('refuses an unlock key made before a key rotation that a server presents as the later epoch', async () => {
    const error = await rejection(unwrapVaultKeyWithPasskey(unlockKey, prfOutput, { ...binding, keyEpoch: 1 }));
    expect(error.reason).toBe('authentication');
  });

  it('refuses an unreadable epoch before anything is unwrapped', async () => {
    expect(() => passkeyUnlockAad({ ...binding, keyEpoch: -1 })).toThrow(/key epoch Lockit cannot read/);
    expect(() => passkeyUnlockAad({ ...binding, keyEpoch: 1.5 })).toThrow(/key epoch Lockit cannot read/);
  });
});
