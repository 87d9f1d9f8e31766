import { describe, expect, it } from 'vitest';
import { aesGcmDecrypt, aesGcmEncrypt } from './aes-gcm';
import { AuthenticationFailedError } from './errors';
import { fromHex, toHex } from './test-support/hex';

async function key(hex: string): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', fromHex(hex), 'AES-GCM', false, ['encrypt', 'decrypt']);
}

const K0 = '00'.repeat(32);
const K = 'feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308';
const IV = 'cafebabefacedbaddecaf888';
const P =
  'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72' +
  '1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255';
const C =
  '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa' +
  '8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad';

// McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", test cases 13 to 16
// (AES-256, 96-bit IV); the same values appear in NIST's GCM validation vectors.
const vectors = [
  {
    name: '13: empty plaintext, no AAD',
    key: K0,
    iv: '00'.repeat(12),
    p: '',
    aad: '',
    c: '',
    tag: '530f8afbc74536b9a963b4f1c4cb738b',
  },
  {
    name: '14: one zero block, no AAD',
    key: K0,
    iv: '00'.repeat(12),
    p: '00'.repeat(16),
    aad: '',
    c: 'cea7403d4d606b6e074ec5d3baf39d18',
    tag: 'd0d1c8a799996bf0265b98b5d48ab919',
  },
  { name: '15: four blocks, no AAD', key: K, iv: IV, p: P, aad: '', c: C, tag: 'b094dac5d93471bdec1a502270e3cc6c' },
  {
    name: '16: 60 bytes with 20 bytes of AAD',
    key: K,
    iv: IV,
    p: P.slice(0, 120),
    aad: 'feedfacedeadbeeffeedfacedeadbeefabaddad2',
    c: C.slice(0, 120),
    tag: '76fc6ece0f4e1768cddf8853bb2d551b',
  },
];

describe('AES-256-GCM against the GCM specification', () => {
  it.each(vectors)('test case $name: encrypts to the published ciphertext and tag', async (v) => {
    const out = await aesGcmEncrypt(await key(v.key), fromHex(v.iv), fromHex(v.p), fromHex(v.aad));
    expect(toHex(out)).toBe(v.c + v.tag);
  });

  it.each(vectors)('test case $name: decrypts the published ciphertext and tag', async (v) => {
    const out = await aesGcmDecrypt(await key(v.key), fromHex(v.iv), fromHex(v.c + v.tag), fromHex(v.aad));
    expect(toHex(out)).toBe(v.p);
  });

  it('refuses test case 16 with one bit of its AAD changed', async () => {
    const v = vectors[3]!;
    const aad = fromHex(v.aad);
    aad[0]! ^= 1;
    await expect(aesGcmDecrypt(await key(v.key), fromHex(v.iv), fromHex(v.c + v.tag), aad)).rejects.toBeInstanceOf(
      AuthenticationFailedError,
    );
  });

  it('refuses test case 16 with one bit of its tag changed', async () => {
    const v = vectors[3]!;
    const data = fromHex(v.c + v.tag);
    data[data.length - 1]! ^= 0x80;
    await expect(aesGcmDecrypt(await key(v.key), fromHex(v.iv), data, fromHex(v.aad))).rejects.toBeInstanceOf(
      AuthenticationFailedError,
    );
  });

  it('refuses data shorter than the tag as unauthenticated', async () => {
    await expect(aesGcmDecrypt(await key(K), fromHex(IV), new Uint8Array(15), new Uint8Array(0))).rejects.toBeInstanceOf(
      AuthenticationFailedError,
    );
  });

  it('accepts only 96-bit IVs', async () => {
    const k = await key(K);
    await expect(aesGcmEncrypt(k, new Uint8Array(16), new Uint8Array(1), new Uint8Array(0))).rejects.toThrow(RangeError);
    await expect(aesGcmDecrypt(k, new Uint8Array(8), new Uint8Array(16), new Uint8Array(0))).rejects.toThrow(RangeError);
  });

  it('lets a misuse (a key without the decrypt usage) surface as itself, not as a failed tag', async () => {
    const encryptOnly = await globalThis.crypto.subtle.importKey('raw', fromHex(K), 'AES-GCM', false, ['encrypt']);
    const error = await aesGcmDecrypt(encryptOnly, fromHex(IV), fromHex(C), new Uint8Array(0)).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(AuthenticationFailedError);
  });
});
