import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES } from '../aes-gcm';
import { formatCiphertext, parseCiphertext } from '../ciphertext-format';
import { asBufferSource } from '../encoding';
import { randomBytes } from '../random';
import { AttachmentDecryptionError } from './attachment-errors';
import { attachmentAad, type AttachmentIds } from './attachment-ids';

export const ATTACHMENT_KEY_BYTES = 32;

/** A file's own key, for sealing; its wrap is what the server stores. */
export interface NewAttachmentKey {
  key: CryptoKey;
  /** `v1.<iv>.<data>`: the 32 key bytes under the vault key, bound to the item and file id. */
  wrappedKey: string;
}

/**
 * A fresh random AES-256 key for one file, and its wrap under the vault key. The key never
 * encrypts another file, so a chunk of one file cannot open as a chunk of another, and a key
 * rotation re-wraps this key (rewrapAttachmentKey) without touching the file's contents.
 */
export async function newAttachmentKey(vaultKey: CryptoKey, ids: AttachmentIds): Promise<NewAttachmentKey> {
  const bytes = randomBytes(ATTACHMENT_KEY_BYTES);
  const wrappedKey = await wrapBytes(vaultKey, bytes, ids);
  return { key: await importFileKey(bytes), wrappedKey };
}

/**
 * The file key of `wrappedKey`, non-extractable. Throws AttachmentDecryptionError('key') for a
 * wrap that is malformed, of another item or file, under another vault key, or changed.
 */
export async function unwrapAttachmentKey(vaultKey: CryptoKey, wrappedKey: string, ids: AttachmentIds): Promise<CryptoKey> {
  return importFileKey(await unwrapBytes(vaultKey, wrappedKey, ids));
}

/**
 * The same file key wrapped under `newVaultKey` (a key rotation): the contents and the sealed
 * metadata, both under the file key, stay as they are. Refuses a wrap that does not open.
 */
export async function rewrapAttachmentKey(
  oldVaultKey: CryptoKey,
  newVaultKey: CryptoKey,
  wrappedKey: string,
  ids: AttachmentIds,
): Promise<string> {
  const bytes = await unwrapBytes(oldVaultKey, wrappedKey, ids);
  try {
    return await wrapBytes(newVaultKey, bytes, ids);
  } finally {
    bytes.fill(0);
  }
}

async function wrapBytes(vaultKey: CryptoKey, bytes: Uint8Array, ids: AttachmentIds): Promise<string> {
  const iv = randomBytes(GCM_IV_BYTES);
  const data = await aesGcmEncrypt(vaultKey, iv, bytes, attachmentAad('key', ids));
  return formatCiphertext(iv, data);
}

async function unwrapBytes(vaultKey: CryptoKey, wrappedKey: string, ids: AttachmentIds): Promise<Uint8Array> {
  const aad = attachmentAad('key', ids);
  let bytes: Uint8Array;
  try {
    const { iv, data } = parseCiphertext(wrappedKey);
    bytes = await aesGcmDecrypt(vaultKey, iv, data, aad);
  } catch {
    throw keyRefused();
  }
  if (bytes.length !== ATTACHMENT_KEY_BYTES) throw keyRefused();
  return bytes;
}

function importFileKey(bytes: Uint8Array): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', asBufferSource(bytes), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

function keyRefused(): AttachmentDecryptionError {
  return new AttachmentDecryptionError(
    'key',
    "This file's key does not open for this item: the server served another file's key or changed it. The file was not opened.",
  );
}
