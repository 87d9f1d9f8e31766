import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES } from './aes-gcm';
import { formatCiphertext, parseCiphertext } from './ciphertext-format';
import { utf8Decode, utf8Encode } from './encoding';
import { AuthenticationFailedError, CiphertextFormatError, FieldDecryptionError } from './errors';
import { randomBytes } from './random';

export const ENTRY_FIELD_NAMES = ['serviceName', 'username', 'password', 'url', 'notes'] as const;
export type EntryFieldName = (typeof ENTRY_FIELD_NAMES)[number];

/** How each field is named in messages a person reads. */
const FIELD_LABELS: Record<EntryFieldName, string> = {
  serviceName: 'service name',
  username: 'user name',
  password: 'password',
  url: 'web address',
  notes: 'notes',
};

/**
 * AAD of an entry field: `lockit/v1/entry|<entryId lowercased>|<field>`. It binds the
 * ciphertext to one entry and one field, so a text moved elsewhere fails to decrypt. The id
 * is lowercased because a UUID may come back in either case. Changing this string makes every
 * stored field unreadable.
 */
export function fieldAad(entryId: string, field: EntryFieldName): string {
  if (typeof entryId !== 'string' || entryId.length === 0) throw new TypeError('An entry id is required.');
  if (!(ENTRY_FIELD_NAMES as readonly string[]).includes(field)) throw new TypeError('Unknown entry field.');
  return `lockit/v1/entry|${entryId.toLowerCase()}|${field}`;
}

/**
 * AES-256-GCM under the vault key, fresh random 96-bit IV per call, AAD = fieldAad(entryId,
 * field). Returns `v1.<iv>.<data>`. Throws TypeError for text with an unpaired surrogate,
 * which could not be stored faithfully.
 */
export async function encryptField(
  vaultKey: CryptoKey,
  entryId: string,
  field: EntryFieldName,
  plaintext: string,
): Promise<string> {
  const aad = utf8Encode(fieldAad(entryId, field));
  if (typeof plaintext !== 'string') throw new TypeError('Only text can be encrypted as an entry field.');
  const iv = randomBytes(GCM_IV_BYTES);
  return formatCiphertext(iv, await aesGcmEncrypt(vaultKey, iv, utf8Encode(plaintext), aad));
}

/**
 * Throws FieldDecryptionError: reason 'format' (not a v1 text, e.g. plaintext), 'version'
 * (a later format), 'authentication' (wrong vault key, another entry or field, a flipped bit,
 * truncation). Never returns wrong data.
 */
export async function decryptField(
  vaultKey: CryptoKey,
  entryId: string,
  field: EntryFieldName,
  ciphertext: string,
): Promise<string> {
  const aad = utf8Encode(fieldAad(entryId, field));
  const label = FIELD_LABELS[field];
  let parsed;
  try {
    parsed = parseCiphertext(ciphertext);
  } catch (error) {
    if (error instanceof CiphertextFormatError) {
      const message =
        error.reason === 'version'
          ? `The ${label} of this item was saved by a newer version of Lockit. Update Lockit to read it.`
          : `The ${label} of this item is not in Lockit's encrypted format, so Lockit will not show it.`;
      throw new FieldDecryptionError(error.reason, message);
    }
    throw error;
  }
  let bytes: Uint8Array;
  try {
    bytes = await aesGcmDecrypt(vaultKey, parsed.iv, parsed.data, aad);
  } catch (error) {
    if (error instanceof AuthenticationFailedError) {
      throw new FieldDecryptionError(
        'authentication',
        `The ${label} of this item could not be decrypted: it was changed, moved from another item or field, or belongs to another account. Lockit will not show it.`,
      );
    }
    throw error;
  }
  try {
    return utf8Decode(bytes);
  } catch {
    // Authentic but not UTF-8: not something encryptField makes, so refuse it.
    throw new FieldDecryptionError('format', `The ${label} of this item is not readable text, so Lockit will not show it.`);
  }
}
