import { beforeAll, describe, expect, it } from 'vitest';
import { aesGcmEncrypt } from './aes-gcm';
import { CIPHERTEXT_PATTERN, formatCiphertext, parseCiphertext } from './ciphertext-format';
import { utf8Encode } from './encoding';
import { AuthenticationFailedError, CiphertextFormatError } from './errors';
import { paddedLength } from './length-padding';
import { openSealed, sealPadded, versionedAad } from './sealed-text';
import { generateVaultKeyBytes, importVaultKey } from './vault-key';

let key: CryptoKey;
const aad = utf8Encode('lockit/v1/entry|test|password');
const IV = new Uint8Array(12).fill(3);

beforeAll(async () => {
  key = await importVaultKey(generateVaultKeyBytes());
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`opened to ${String(value)}`);
    },
    (error: unknown) => error,
  );
}

/** A v1 text as Lockit wrote it before length hiding: the plaintext unpadded, the AAD unmarked. */
async function sealV1(plaintext: Uint8Array): Promise<string> {
  return formatCiphertext(IV, await aesGcmEncrypt(key, IV, plaintext, aad));
}

/** A v2 text over `padded` exactly as given (to craft damaged padding under the real key). */
async function sealV2Raw(padded: Uint8Array): Promise<string> {
  return formatCiphertext(IV, await aesGcmEncrypt(key, IV, padded, versionedAad('v2', aad)), 'v2');
}

describe('sealPadded and openSealed', () => {
  it('seal as v2 and open it back, the empty plaintext included', async () => {
    for (const text of ['', 'hunter2', 'pässwörd 🔐', 'x'.repeat(5000)]) {
      const sealed = await sealPadded(key, utf8Encode(text), aad);
      expect(sealed).toMatch(/^v2\./);
      expect(sealed).toMatch(CIPHERTEXT_PATTERN);
      expect(new TextDecoder().decode(await openSealed(key, sealed, aad))).toBe(text);
    }
  });

  it('every length from 0 to 600 seals to its bucket plus the tag, so the text length depends only on the bucket', async () => {
    const lengthOfBucket = new Map<number, number>();
    for (let length = 0; length <= 600; length++) {
      const sealed = await sealPadded(key, new Uint8Array(length).fill(0x61), aad);
      const bucket = paddedLength(length);
      expect(parseCiphertext(sealed, ['v2']).data.length, `length ${length}`).toBe(bucket + 16);
      const seen = lengthOfBucket.get(bucket) ?? sealed.length;
      expect(sealed.length, `length ${length}`).toBe(seen);
      lengthOfBucket.set(bucket, seen);
    }
    expect(lengthOfBucket.size).toBe(11);
  });

  it('open a v1 text saved before length hiding', async () => {
    const v1 = await sealV1(utf8Encode('saved long ago'));
    expect(new TextDecoder().decode(await openSealed(key, v1, aad))).toBe('saved long ago');
  });

  it('refuse a v1 text relabelled as v2 (authentication), whatever its size', async () => {
    // 32 bytes of plaintext: a v1 text whose data is a bucket plus the tag, so it parses as v2.
    const v1 = await sealV1(new Uint8Array(32).fill(0x80));
    expect(await rejection(openSealed(key, v1.replace(/^v1\./, 'v2.'), aad))).toBeInstanceOf(AuthenticationFailedError);
  });

  it('refuse a v2 text relabelled as v1 (authentication)', async () => {
    const v2 = await sealPadded(key, utf8Encode('hunter2'), aad);
    expect(await rejection(openSealed(key, v2.replace(/^v2\./, 'v1.'), aad))).toBeInstanceOf(AuthenticationFailedError);
  });

  it('refuse authentic v2 data whose padding is damaged, like a failed authentication', async () => {
    const noMarker = new Uint8Array(32).fill(0x61);
    const wrongMarker = new Uint8Array(32);
    wrongMarker.set([0x61, 0x81]);
    const overLong = new Uint8Array(64);
    overLong.set([0x61, 0x80]);
    for (const padded of [noMarker, wrongMarker, overLong, new Uint8Array(32)]) {
      expect(await rejection(openSealed(key, await sealV2Raw(padded), aad))).toBeInstanceOf(AuthenticationFailedError);
    }
  });

  it('refuse other associated data, and a text that is not a ciphertext (format)', async () => {
    const v2 = await sealPadded(key, utf8Encode('hunter2'), aad);
    expect(await rejection(openSealed(key, v2, utf8Encode('lockit/v1/entry|other|password')))).toBeInstanceOf(
      AuthenticationFailedError,
    );
    const refusal = await rejection(openSealed(key, 'hunter2', aad));
    expect(refusal).toBeInstanceOf(CiphertextFormatError);
  });
});
