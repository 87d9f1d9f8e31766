import { asBufferSource, fromBase64Url, toBase64Url, utf8Encode } from '../encoding';
import { hkdfSha256 } from '../hkdf';
import { argon2idRaw } from '../kdf';
import { DEFAULT_KDF_PARAMS } from '../kdf-params';
import { randomBytes, SALT_BYTES } from '../random';
import { ShareOpenError } from './share-errors';

/** The key a link carries in its fragment: 32 random bytes, never sent to the server. */
export const SHARE_LINK_KEY_BYTES = 32;
const CHECK_BYTES = 16;

/** Share ids are lower-case UUIDs made by the browser, so the ciphertext can be bound to one before upload. */
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function checkShareId(id: string): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw new RangeError('A share link is named by a lower-case UUID.');
  return id;
}

/** A new share id and fragment key, both made here in the browser. */
export function newShareLinkSecrets(): { id: string; linkKey: string } {
  return { id: globalThis.crypto.randomUUID(), linkKey: toBase64Url(randomBytes(SHARE_LINK_KEY_BYTES)) };
}

/** A fresh salt for a share's password (16 bytes, base64url), stored with the share in the clear. */
export function newSharePasswordSalt(): string {
  return toBase64Url(randomBytes(SALT_BYTES));
}

/** The fragment key's bytes; a link whose fragment is not exactly 32 bytes of base64url is incomplete. */
export function decodeShareLinkKey(linkKey: string): Uint8Array {
  let bytes: Uint8Array | undefined;
  try {
    bytes = fromBase64Url(linkKey);
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== SHARE_LINK_KEY_BYTES) {
    throw new ShareOpenError(
      'link',
      'This link is incomplete: the part after "#" is missing or damaged. Ask for the whole link again.',
    );
  }
  return bytes;
}

export interface ShareKeys {
  /** AES-256-GCM key the content is sealed under. */
  key: CryptoKey;
  /** 16 bytes (base64url) that tell a wrong password from changed content; useless without the fragment key. */
  keyCheck: string;
}

/**
 * The share's keys: HKDF-SHA-256 over the fragment key followed, when there is a password, by
 * Argon2id(NFKC(password), salt) at Lockit's default parameters (m = 64 MiB, t = 3, p = 4).
 *
 * Security invariants: the password is part of the key, not a check the server makes, so a
 * server (or anyone holding the ciphertext) without the fragment key learns nothing and cannot
 * guess the password offline either, while someone who has the link but not the password must
 * pay an Argon2id per guess. The Argon2 parameters are fixed by this format, never read from
 * the server, so a server cannot cheapen them. The share id and whether a password is used are
 * in the HKDF info: keys of one share never open another, and a server that drops or adds the
 * "password needed" flag only causes a failed opening.
 */
export async function deriveShareKeys(input: {
  id: string;
  linkKey: string;
  password: string | null;
  passwordSalt: string | null;
}): Promise<ShareKeys> {
  const id = checkShareId(input.id);
  const fragment = decodeShareLinkKey(input.linkKey);
  const usesPassword = input.password !== null;
  if (usesPassword !== (input.passwordSalt !== null)) {
    throw new RangeError('A share password and its salt come together.');
  }
  let stretched: Uint8Array = new Uint8Array(0);
  if (input.password !== null && input.passwordSalt !== null) {
    const salt = fromBase64Url(input.passwordSalt);
    if (salt.length !== SALT_BYTES) throw new ShareOpenError('tampered', TAMPERED_MESSAGE);
    const passwordBytes = utf8Encode(input.password.normalize('NFKC'));
    try {
      stretched = await argon2idRaw(passwordBytes, salt, DEFAULT_KDF_PARAMS, 32);
    } finally {
      passwordBytes.fill(0);
    }
  }
  const ikm = new Uint8Array(fragment.length + stretched.length);
  ikm.set(fragment);
  ikm.set(stretched, fragment.length);
  const mode = usesPassword ? 'password' : 'none';
  try {
    const keyBytes = await hkdfSha256(ikm, new Uint8Array(0), utf8Encode(`lockit/v1/share-key|${id}|${mode}`), 32);
    const check = await hkdfSha256(ikm, new Uint8Array(0), utf8Encode(`lockit/v1/share-check|${id}|${mode}`), CHECK_BYTES);
    const key = await globalThis.crypto.subtle.importKey('raw', asBufferSource(keyBytes), 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
    keyBytes.fill(0);
    return { key, keyCheck: toBase64Url(check) };
  } finally {
    ikm.fill(0);
    fragment.fill(0);
    stretched.fill(0);
  }
}

export const TAMPERED_MESSAGE =
  'This shared item could not be opened: its contents were changed after it was shared. Nothing was shown.';
