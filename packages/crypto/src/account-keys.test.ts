import { beforeAll, describe, expect, it } from 'vitest';
import { deriveAccountKeys, deriveKeysFromPassword } from './account-keys';
import { aesGcmDecrypt, aesGcmEncrypt } from './aes-gcm';
import { fromBase64Url, toBase64Url } from './encoding';
import { hkdfSha256 } from './hkdf';
import { deriveMasterKey } from './kdf';
import { randomSalt } from './random';
import { ascii } from './test-support/hex';
import { FLOOR_PARAMS } from './test-support/params';

const MASTER_KEY = Uint8Array.from({ length: 32 }, (_, i) => i);
const IV = new Uint8Array(12);
const NO_AAD = new Uint8Array(0);

async function aesKey(bytes: Uint8Array): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', bytes as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

describe('deriveAccountKeys', () => {
  it('authKey is HKDF-SHA-256(masterKey, empty salt, "lockit/v1/auth-key"), 32 bytes base64url', async () => {
    const { authKey } = await deriveAccountKeys(MASTER_KEY);
    const expected = await hkdfSha256(MASTER_KEY, new Uint8Array(0), ascii('lockit/v1/auth-key'), 32);
    expect(authKey).toBe(toBase64Url(expected));
    expect(authKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('keeps a pinned authKey for a fixed master key, so existing accounts keep signing in', async () => {
    // Also computed independently with Python's hmac/hashlib (RFC 5869 extract and expand).
    expect((await deriveAccountKeys(MASTER_KEY)).authKey).toBe(PINNED_AUTH_KEY);
  });

  it('wrapKey is HKDF-SHA-256(masterKey, empty salt, "lockit/v1/wrap-key") as AES-256-GCM', async () => {
    const { wrapKey } = await deriveAccountKeys(MASTER_KEY);
    const expected = await aesKey(await hkdfSha256(MASTER_KEY, new Uint8Array(0), ascii('lockit/v1/wrap-key'), 32));
    const sealed = await aesGcmEncrypt(wrapKey, IV, ascii('probe'), NO_AAD);
    expect(await aesGcmDecrypt(expected, IV, sealed, NO_AAD)).toEqual(ascii('probe'));
  });

  it('authKey is not the wrap key: what the server receives cannot unwrap anything', async () => {
    const { authKey, wrapKey } = await deriveAccountKeys(MASTER_KEY);
    const sealed = await aesGcmEncrypt(wrapKey, IV, ascii('probe'), NO_AAD);
    await expect(aesGcmDecrypt(await aesKey(fromBase64Url(authKey)), IV, sealed, NO_AAD)).rejects.toThrow();
  });

  it('wrapKey is a non-extractable AES-GCM 256 key for encrypt and decrypt only', async () => {
    const { wrapKey } = await deriveAccountKeys(MASTER_KEY);
    expect(wrapKey.extractable).toBe(false);
    expect(wrapKey.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    expect([...wrapKey.usages].sort()).toEqual(['decrypt', 'encrypt']);
    await expect(globalThis.crypto.subtle.exportKey('raw', wrapKey)).rejects.toThrow();
  });

  it("leaves the caller's master key untouched", async () => {
    const copy = MASTER_KEY.slice();
    await deriveAccountKeys(copy);
    expect(copy).toEqual(MASTER_KEY);
  });

  it.each([0, 16, 31, 33, 64])('refuses a master key of %i bytes', async (length) => {
    await expect(deriveAccountKeys(new Uint8Array(length))).rejects.toThrow(RangeError);
  });
});

describe('deriveKeysFromPassword', () => {
  const salt = randomSalt();
  const otherSalt = randomSalt();
  let first: Awaited<ReturnType<typeof deriveKeysFromPassword>>;
  let again: typeof first;
  let withOtherSalt: typeof first;

  beforeAll(async () => {
    [first, again, withOtherSalt] = await Promise.all([
      deriveKeysFromPassword('correct horse', salt, FLOOR_PARAMS),
      deriveKeysFromPassword('correct horse', salt, FLOOR_PARAMS),
      deriveKeysFromPassword('correct horse', otherSalt, FLOOR_PARAMS),
    ]);
  });

  it('is deterministic: equal inputs give the same authKey and a wrapKey that opens the same data', async () => {
    expect(again.authKey).toBe(first.authKey);
    const sealed = await aesGcmEncrypt(first.wrapKey, IV, ascii('vault'), NO_AAD);
    expect(await aesGcmDecrypt(again.wrapKey, IV, sealed, NO_AAD)).toEqual(ascii('vault'));
  });

  it('differs for a different salt, in both keys', async () => {
    expect(withOtherSalt.authKey).not.toBe(first.authKey);
    const sealed = await aesGcmEncrypt(first.wrapKey, IV, ascii('vault'), NO_AAD);
    await expect(aesGcmDecrypt(withOtherSalt.wrapKey, IV, sealed, NO_AAD)).rejects.toThrow();
  });

  it('equals deriveAccountKeys over deriveMasterKey', async () => {
    const split = await deriveAccountKeys(await deriveMasterKey('correct horse', salt, FLOOR_PARAMS));
    expect(split.authKey).toBe(first.authKey);
  });

  it('refuses params below the floor', async () => {
    await expect(deriveKeysFromPassword('correct horse', salt, { ...FLOOR_PARAMS, iterations: 1 })).rejects.toMatchObject({
      name: 'KdfParamsRejectedError',
      reason: 'below-floor',
    });
  });
});

const PINNED_AUTH_KEY = 'BJHubsgi1lp3skjqRe0JLFHG6eEzP8cYSatODI-w02k';
