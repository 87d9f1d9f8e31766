import { GCM_IV_BYTES, GCM_TAG_BYTES } from './aes-gcm';
import { fromBase64Url, toBase64Url } from './encoding';
import { CiphertextFormatError } from './errors';

/**
 * The one text format of every Lockit ciphertext: `v1.<iv>.<ciphertext+tag>`, both parts
 * unpadded base64url; v1 means AES-256-GCM with a 96-bit IV and a 128-bit tag.
 *
 * The server checks stored fields against CIPHERTEXT_PATTERN so that a buggy client cannot
 * put plaintext at rest; the client parses with `parseCiphertext` and refuses unknown versions.
 */
export const CIPHERTEXT_VERSION = 'v1';
/** 12-byte IV is 16 characters; the data is at least the 16-byte tag (22 characters). */
export const CIPHERTEXT_PATTERN = /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,}$/;

export interface ParsedCiphertext {
  version: 'v1';
  iv: Uint8Array;
  data: Uint8Array;
}

/** Looks like a version tag of some other release (v2, v10...), not like random text. */
const OTHER_VERSION = /^v[0-9]{1,4}$/;

/** `v1.<iv>.<data>`; refuses an IV other than 12 bytes or data shorter than the tag. */
export function formatCiphertext(iv: Uint8Array, data: Uint8Array): string {
  if (iv.length !== GCM_IV_BYTES) throw new RangeError(`A v1 ciphertext needs a ${GCM_IV_BYTES}-byte IV.`);
  if (data.length < GCM_TAG_BYTES) throw new RangeError(`A v1 ciphertext needs at least the ${GCM_TAG_BYTES}-byte tag.`);
  return `${CIPHERTEXT_VERSION}.${toBase64Url(iv)}.${toBase64Url(data)}`;
}

/**
 * Parses a stored text against the allow-list: exactly `v1.<iv>.<data>`, canonical base64url,
 * a 12-byte IV and at least 16 bytes of data. A version this code does not know is reported
 * as reason 'version' (checked first, since a later version may have another shape); every
 * other refusal, plaintext included, is reason 'format'. Parsing says nothing about
 * authenticity: that is only known after decryption.
 */
export function parseCiphertext(text: string): ParsedCiphertext {
  if (typeof text !== 'string') throw notCiphertext();
  const parts = text.split('.');
  const version = parts[0] ?? '';
  if (version !== CIPHERTEXT_VERSION) {
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
  return { version: CIPHERTEXT_VERSION, iv, data };
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
