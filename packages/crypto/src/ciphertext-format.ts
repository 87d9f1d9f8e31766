import { GCM_IV_BYTES, GCM_TAG_BYTES } from './aes-gcm';
import { fromBase64Url, toBase64Url } from './encoding';
import { CiphertextFormatError } from './errors';
import { isPaddedLength } from './length-padding';

/**
 * The one text format of every Lockit ciphertext: `<version>.<iv>.<ciphertext+tag>`, both
 * parts unpadded base64url, AES-256-GCM with a 96-bit IV and a 128-bit tag.
 * - `v1`: the plaintext as it is (the wrapped vault key and passkey unlock key, which are
 *   fixed-size, and everything saved before length hiding).
 * - `v2`: the plaintext padded to a size bucket first (length-padding.ts), and the associated
 *   data marked as v2 (sealed-text.ts), so a text relabelled from one version to the other
 *   fails authentication. Its data is a bucket plus the tag.
 * - `v3`: padded like v2, and its associated data (marked as v3) also binds the ciphertexts of
 *   the other fields of the entry it belongs to (fields.ts, bound overview). Only an entry's
 *   overview is sealed so: one decryption then proves the whole entry is as it was sealed.
 *
 * The server checks stored fields against CIPHERTEXT_PATTERN so that a buggy client cannot
 * put plaintext at rest; the client parses with `parseCiphertext` and refuses unknown versions.
 */
export type CiphertextVersion = 'v1' | 'v2' | 'v3';
/** The version of the fixed-size key wraps; kept as the default of formatCiphertext. */
export const CIPHERTEXT_VERSION = 'v1';
/** The version every padded seal writes. */
export const PADDED_CIPHERTEXT_VERSION = 'v2';
/** The version of a padded seal whose associated data binds the entry's other fields. */
export const BOUND_CIPHERTEXT_VERSION = 'v3';
/**
 * 12-byte IV is 16 characters; v1 data is at least the 16-byte tag (22 characters), v2 data
 * at least the smallest bucket (32 bytes) plus the tag, 48 bytes (64 characters).
 */
export const CIPHERTEXT_PATTERN = /^(?:v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,}|v2\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{64,})$/;
/** An entry's overview: any of the above, or a bound (v3) text, which has v2's shape. */
export const OVERVIEW_CIPHERTEXT_PATTERN =
  /^(?:v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,}|v[23]\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{64,})$/;

/** Whether texts of `version` hold a plaintext padded to its bucket. */
export const isPaddedVersion = (version: CiphertextVersion): boolean => version !== CIPHERTEXT_VERSION;

export interface ParsedCiphertext {
  version: CiphertextVersion;
  iv: Uint8Array;
  data: Uint8Array;
}

/** Looks like a version tag (v0, v3, v10...), not like random text. */
const OTHER_VERSION = /^v[0-9]{1,4}$/;

/**
 * `<version>.<iv>.<data>`; refuses an IV other than 12 bytes, data shorter than the tag, or
 * v2 data that is not a bucket plus the tag.
 */
export function formatCiphertext(iv: Uint8Array, data: Uint8Array, version: CiphertextVersion = CIPHERTEXT_VERSION): string {
  if (iv.length !== GCM_IV_BYTES) throw new RangeError(`A ${version} ciphertext needs a ${GCM_IV_BYTES}-byte IV.`);
  if (data.length < GCM_TAG_BYTES) throw new RangeError(`A ${version} ciphertext needs at least the ${GCM_TAG_BYTES}-byte tag.`);
  if (isPaddedVersion(version) && !isPaddedLength(data.length - GCM_TAG_BYTES)) {
    throw new RangeError(`A ${version} ciphertext holds a padded plaintext of a bucket size.`);
  }
  return `${version}.${toBase64Url(iv)}.${toBase64Url(data)}`;
}

/**
 * Parses a stored text against the allow-list: exactly `v1.<iv>.<data>`, `v2.<iv>.<data>` or
 * `v3.<iv>.<data>`, canonical base64url, a 12-byte IV, at least 16 bytes of data for v1 and a
 * bucket size plus the 16-byte tag for v2 and v3. Only the `versions` the caller names are accepted: by default v1
 * alone, because the fixed-size key wraps (vault key, passkey unlock key, tab key) do not bind
 * the version into their associated data, so for them a text relabelled v2 must not parse;
 * the padded seal (sealed-text.ts) names both, and only an entry's overview names v3. A version this code does not know, or one the
 * caller does not accept, is reported as reason 'version' (checked first, since a later
 * version may have another shape); every other refusal, plaintext included, is reason
 * 'format'. Parsing says nothing about authenticity: that is only known after decryption.
 */
export function parseCiphertext(text: string, versions: readonly CiphertextVersion[] = [CIPHERTEXT_VERSION]): ParsedCiphertext {
  if (typeof text !== 'string') throw notCiphertext();
  const parts = text.split('.');
  const version = parts[0] ?? '';
  if (!(versions as readonly string[]).includes(version)) {
    if (OTHER_VERSION.test(version)) {
      throw new CiphertextFormatError(
        'version',
        `This data was saved in a format this version of Lockit does not know (${version}). Update Lockit to read it.`,
      );
    }
    throw notCiphertext();
  }
  if (parts.length !== 3) throw notCiphertext();
  const iv = decodePart(parts[1]!);
  const data = decodePart(parts[2]!);
  if (iv.length !== GCM_IV_BYTES || data.length < GCM_TAG_BYTES) throw notCiphertext();
  if (isPaddedVersion(version as CiphertextVersion) && !isPaddedLength(data.length - GCM_TAG_BYTES)) throw notCiphertext();
  return { version: version as CiphertextVersion, iv, data };
}

function decodePart(part: string): Uint8Array {
  try {
    return fromBase64Url(part);
  } catch {
    throw notCiphertext();
  }
}

function notCiphertext(): CiphertextFormatError {
  return new CiphertextFormatError('format', "This data is not in Lockit's encrypted format, so Lockit will not read it.");
}
