import { asBufferSource } from './encoding';

/** RFC 5869's limit for SHA-256: 255 blocks of 32 bytes. */
const MAX_LENGTH = 255 * 32;

/**
 * HKDF-SHA-256 (RFC 5869) on WebCrypto, returning `length` bytes. An empty salt means
 * HashLen zero bytes, as the RFC says (HMAC pads short keys with zeros).
 */
export async function hkdfSha256(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array> {
  if (!Number.isInteger(length) || length < 1 || length > MAX_LENGTH) {
    throw new RangeError(`HKDF-SHA-256 output length must be a whole number from 1 to ${MAX_LENGTH} bytes.`);
  }
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey('raw', asBufferSource(ikm), 'HKDF', false, ['deriveBits']);
  const bits = await subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: asBufferSource(salt), info: asBufferSource(info) },
    key,
    length * 8,
  );
  return new Uint8Array(bits);
}
