import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES } from './aes-gcm';
import {
  BOUND_CIPHERTEXT_VERSION,
  CIPHERTEXT_VERSION,
  formatCiphertext,
  parseCiphertext,
  PADDED_CIPHERTEXT_VERSION,
  type CiphertextVersion,
} from './ciphertext-format';
import { utf8Encode } from './encoding';
import { AuthenticationFailedError } from './errors';
import { padPlaintext, unpadPlaintext } from './length-padding';
import { randomBytes } from './random';

/**
 * Marks the associated data of a v2 (padded) ciphertext. No v1 associated data Lockit uses
 * starts with it (entry fields start `lockit/v1/entry|` or `lockit/v2/entry|`, key wraps
 * `lockit/v1/`...), so a v1 text relabelled v2, or a v2 text relabelled v1, is decrypted
 * under other associated data than it was sealed with and fails authentication.
 */
const V2_AAD_PREFIX = utf8Encode('lockit/padded-v2|');
/** Marks the associated data of a v3 (padded, bound) ciphertext, likewise unlike any other. */
const V3_AAD_PREFIX = utf8Encode('lockit/bound-v3|');

/** What openSealed reads unless told otherwise: texts saved before length hiding, and padded ones. */
const OPENABLE_VERSIONS: readonly CiphertextVersion[] = [CIPHERTEXT_VERSION, PADDED_CIPHERTEXT_VERSION];

/** The associated data a text of `version` is sealed and opened with, for the caller's `aad`. */
export function versionedAad(version: CiphertextVersion, aad: Uint8Array): Uint8Array {
  const prefix =
    version === PADDED_CIPHERTEXT_VERSION ? V2_AAD_PREFIX : version === BOUND_CIPHERTEXT_VERSION ? V3_AAD_PREFIX : null;
  if (prefix === null) return aad;
  const out = new Uint8Array(prefix.length + aad.length);
  out.set(prefix);
  out.set(aad, prefix.length);
  return out;
}

/**
 * Seals `plaintext` as `<version>.<iv>.<data>` (v2 unless the caller asks for v3): padded to
 * its size bucket (length-padding.ts), then AES-256-GCM under `key` with a fresh random
 * 96-bit IV and the version-marked `aad`.
 * Security invariant: the text's length depends only on the plaintext's bucket.
 */
export async function sealPadded(
  key: CryptoKey,
  plaintext: Uint8Array,
  aad: Uint8Array,
  version: typeof PADDED_CIPHERTEXT_VERSION | typeof BOUND_CIPHERTEXT_VERSION = PADDED_CIPHERTEXT_VERSION,
): Promise<string> {
  const iv = randomBytes(GCM_IV_BYTES);
  const data = await aesGcmEncrypt(key, iv, padPlaintext(plaintext), versionedAad(version, aad));
  return formatCiphertext(iv, data, version);
}

/**
 * Opens a v1 text (plaintext as sealed) or a v2 text (padding stripped strictly) sealed with
 * `aad`; with `versions` ['v3'], only a v3 text (padded, like v2). Throws
 * CiphertextFormatError for a text outside the allow-list or of a version not in `versions`,
 * and AuthenticationFailedError for a wrong key or associated data, any changed bit,
 * a relabelled version, or a v2 plaintext whose padding is not exactly what sealPadded
 * writes (damaged data is reported like tampered data, never returned).
 */
export async function openSealed(
  key: CryptoKey,
  text: string,
  aad: Uint8Array,
  versions: readonly CiphertextVersion[] = OPENABLE_VERSIONS,
): Promise<Uint8Array> {
  const { version, iv, data } = parseCiphertext(text, versions);
  const bytes = await aesGcmDecrypt(key, iv, data, versionedAad(version, aad));
  if (version === CIPHERTEXT_VERSION) return bytes;
  const plaintext = unpadPlaintext(bytes);
  if (plaintext === null) throw new AuthenticationFailedError();
  return plaintext;
}
