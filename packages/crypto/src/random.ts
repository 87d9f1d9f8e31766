import { toBase64Url } from './encoding';

/** Bytes from the platform CSPRNG (WebCrypto); there is no other source in this package. */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

export const SALT_BYTES = 16;

/** A fresh KDF salt: 16 random bytes, base64url. Made at sign-up and at each password change. */
export function randomSalt(): string {
  return toBase64Url(randomBytes(SALT_BYTES));
}

/** A random (version 4) UUID, made by the client, which is bound into every field's AAD. */
export function newEntryId(): string {
  return globalThis.crypto.randomUUID();
}
