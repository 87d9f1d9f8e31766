import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CIPHERTEXT_PATTERN, formatCiphertext, parseCiphertext, type CiphertextVersion } from './ciphertext-format';
import { toBase64Url } from './encoding';
import { FieldDecryptionError } from './errors';
import { decryptField, encryptField, ENTRY_FIELD_NAMES, fieldAad, type EntryFieldName } from './fields';
import { newEntryId } from './random';
import { generateVaultKeyBytes, importVaultKey } from './vault-key';

let vaultKey: CryptoKey;
let otherVaultKey: CryptoKey;
const entryId = newEntryId();
/** Entry fields are written as v2: parse them as such to tamper with their parts. */
const V2: readonly CiphertextVersion[] = ['v2'];

beforeAll(async () => {
  [vaultKey, otherVaultKey] = await Promise.all([
    importVaultKey(generateVaultKeyBytes()),
    importVaultKey(generateVaultKeyBytes()),
  ]);
});

async function failure(promise: Promise<unknown>): Promise<FieldDecryptionError> {
  const error = await promise.then(
    (value) => new Error(`decrypted to ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  if (error instanceof FieldDecryptionError) return error;
  throw error;
}

describe('fieldAad', () => {
  it('names the lowercased entry id and the field', () => {
    expect(fieldAad('0F8FAD5B-D9CB-469F-A165-70867728950E', 'password')).toBe(
      'lockit/v1/entry|0f8fad5b-d9cb-469f-a165-70867728950e|password',
    );
  });

  it('refuses an unknown field or an empty entry id', () => {
    expect(() => fieldAad(entryId, 'secret' as EntryFieldName)).toThrow(TypeError);
    expect(() => fieldAad('', 'password')).toThrow(TypeError);
  });
});

describe('encryptField and decryptField', () => {
  it.each(['', 'hunter2', 'pässwörd 🔐 密码 \u0000 \n', 'x'.repeat(20_000)])('round-trip %#', async (text) => {
    const sealed = await encryptField(vaultKey, entryId, 'password', text);
    expect(await decryptField(vaultKey, entryId, 'password', sealed)).toBe(text);
  });

  it('round-trip arbitrary unicode text in every field', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 3000 }), fc.string({ unit: 'grapheme', maxLength: 1000 })),
        fc.constantFrom(...ENTRY_FIELD_NAMES.filter((name) => name !== 'overview' && name !== 'details')),
        async (text, field) => {
          const sealed = await encryptField(vaultKey, entryId, field, text);
          expect(await decryptField(vaultKey, entryId, field, sealed)).toBe(text);
        },
      ),
    );
    // 100 runs of up to 3,000 characters: a few seconds when the 2 cores are busy with other suites.
  }, 30_000);

  it('write a v2 (padded) text the server accepts, which does not contain the plaintext', async () => {
    const sealed = await encryptField(vaultKey, entryId, 'username', 'alice@example.com');
    expect(sealed).toMatch(CIPHERTEXT_PATTERN);
    expect(sealed).toMatch(/^v2\./);
    expect(sealed).not.toContain('alice');
  });

  it('use a fresh IV each time, so equal texts give different ciphertexts', async () => {
    const a = await encryptField(vaultKey, entryId, 'password', 'same');
    const b = await encryptField(vaultKey, entryId, 'password', 'same');
    expect(parseCiphertext(a, V2).iv).not.toEqual(parseCiphertext(b, V2).iv);
    expect(a).not.toBe(b);
  });

  it('treat the entry id case-insensitively, as UUIDs may come back uppercased', async () => {
    const sealed = await encryptField(vaultKey, entryId.toUpperCase(), 'url', 'https://example.com');
    expect(await decryptField(vaultKey, entryId, 'url', sealed)).toBe('https://example.com');
  });

  it('refuse text with an unpaired surrogate instead of storing something else', async () => {
    await expect(encryptField(vaultKey, entryId, 'notes', 'broken \uD83D')).rejects.toThrow(TypeError);
  });
});

describe('decryptField refuses', () => {
  let sealed: string;
  beforeAll(async () => {
    sealed = await encryptField(vaultKey, entryId, 'password', 'hunter2');
  });

  it('a field moved to another field of the same entry', async () => {
    const error = await failure(decryptField(vaultKey, entryId, 'username', sealed));
    expect(error.reason).toBe('authentication');
    expect(error.message).toBe(
      'The user name of this item could not be decrypted: it was changed, moved from another item or field, ' +
        'belongs to another account, or the item lost or gained a field on the server. Lockit will not show it.',
    );
  });

  it('a field moved to another entry', async () => {
    expect((await failure(decryptField(vaultKey, newEntryId(), 'password', sealed))).reason).toBe('authentication');
  });

  it('a field decrypted with another vault key (another account)', async () => {
    expect((await failure(decryptField(otherVaultKey, entryId, 'password', sealed))).reason).toBe('authentication');
  });

  it.each<[string, 'iv' | 'data', number]>([
    ['the IV', 'iv', 5],
    ['the encrypted text', 'data', 0],
    ['the tag', 'data', -1],
  ])('a flipped bit in %s', async (_what, part, index) => {
    const parsed = parseCiphertext(sealed, V2);
    const target = parsed[part];
    target[index < 0 ? target.length + index : index]! ^= 0x10;
    const tampered = formatCiphertext(parsed.iv, parsed.data, 'v2');
    expect((await failure(decryptField(vaultKey, entryId, 'password', tampered))).reason).toBe('authentication');
  });

  it('every single-bit flip anywhere in IV, text and tag', async () => {
    const { iv, data } = parseCiphertext(sealed, V2);
    const bytes = new Uint8Array([...iv, ...data]);
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const copy = bytes.slice();
      copy[bit >> 3]! ^= 1 << (bit & 7);
      const tampered = formatCiphertext(copy.slice(0, 12), copy.slice(12), 'v2');
      expect((await failure(decryptField(vaultKey, entryId, 'password', tampered))).reason).toBe('authentication');
    }
  });

  it('a truncated ciphertext', async () => {
    const { iv, data } = parseCiphertext(sealed, V2);
    // A v2 text cut short is no longer a bucket plus the tag: refused before decryption.
    const shorter = `v2.${toBase64Url(iv)}.${toBase64Url(data.slice(0, -1))}`;
    expect((await failure(decryptField(vaultKey, entryId, 'password', shorter))).reason).toBe('format');
    // Cut to a smaller bucket plus a tag's worth of bytes: well-formed, but not authentic.
    const long = parseCiphertext(await encryptField(vaultKey, entryId, 'password', 'x'.repeat(40)), V2);
    const cutToBucket = formatCiphertext(long.iv, long.data.slice(0, 32 + 16), 'v2');
    expect((await failure(decryptField(vaultKey, entryId, 'password', cutToBucket))).reason).toBe('authentication');
    const tooShort = sealed.slice(0, sealed.lastIndexOf('.') + 10);
    expect((await failure(decryptField(vaultKey, entryId, 'password', tooShort))).reason).toBe('format');
  });

  it('an unknown version, saying to update Lockit', async () => {
    const error = await failure(decryptField(vaultKey, entryId, 'password', sealed.replace(/^v2\./, 'v3.')));
    expect(error.reason).toBe('version');
    expect(error.message).toContain('Update Lockit');
  });

  it.each(['hunter2', 'https://example.com', '', 'v1.notreally.base64'])('the plaintext %j', async (text) => {
    const error = await failure(decryptField(vaultKey, entryId, 'password', text));
    expect(error.reason).toBe('format');
    expect(error.message).toBe("The password of this item is not in Lockit's encrypted format, so Lockit will not show it.");
  });
});
