import { asBufferSource } from './encoding';
import { AuthenticationFailedError } from './errors';

/** Lockit only uses 96-bit IVs (GCM's native size) and full 128-bit tags. */
export const GCM_IV_BYTES = 12;
export const GCM_TAG_BYTES = 16;

/**
 * AES-GCM encryption; returns ciphertext followed by the 16-byte tag. The caller must never
 * reuse an IV under one key: every caller in this package draws a fresh random one.
 */
export async function aesGcmEncrypt(key: CryptoKey, iv: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
  checkIv(iv);
  const out = await globalThis.crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: asBufferSource(iv), additionalData: asBufferSource(aad), tagLength: GCM_TAG_BYTES * 8 },
    key,
    asBufferSource(plaintext),
  );
  return new Uint8Array(out);
}

/**
 * AES-GCM decryption of ciphertext-plus-tag. Throws AuthenticationFailedError when the tag
 * does not verify (wrong key, IV, AAD, or any changed bit); no plaintext is released then.
 */
export async function aesGcmDecrypt(key: CryptoKey, iv: Uint8Array, data: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
  checkIv(iv);
  if (data.length < GCM_TAG_BYTES) throw new AuthenticationFailedError();
  try {
    const out = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: asBufferSource(iv), additionalData: asBufferSource(aad), tagLength: GCM_TAG_BYTES * 8 },
      key,
      asBufferSource(data),
    );
    return new Uint8Array(out);
  } catch (error) {
    // WebCrypto reports a failed tag as OperationError; anything else (a key of the wrong
    // kind or usage) is a programming error and keeps its own identity.
    if ((error as { name?: unknown } | null)?.name === 'OperationError') throw new AuthenticationFailedError();
    throw error;
  }
}

function checkIv(iv: Uint8Array): void {
  if (iv.length !== GCM_IV_BYTES) throw new RangeError(`AES-GCM IV must be ${GCM_IV_BYTES} bytes.`);
}
