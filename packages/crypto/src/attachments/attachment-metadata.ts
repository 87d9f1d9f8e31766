import { PADDED_CIPHERTEXT_VERSION } from '../ciphertext-format';
import { utf8Decode, utf8Encode } from '../encoding';
import { openSealed, sealPadded } from '../sealed-text';
import { AttachmentDecryptionError } from './attachment-errors';
import { attachmentAad, type AttachmentIds } from './attachment-ids';

/** What a person sees of a file; sealed under the file key, so the server sees none of it. */
export interface AttachmentMetadata {
  /** The file's name, 1 to 255 characters, no `/`, `\` or control character. */
  name: string;
  /** Its size in bytes before encryption: the content must hold exactly this many. */
  size: number;
  /** Its media type as the platform gave it (may be ''), at most 255 characters. */
  type: string;
}

export const MAX_ATTACHMENT_NAME_LENGTH = 255;
const MAX_TYPE_LENGTH = 255;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const FORBIDDEN_NAME_CHARACTERS = /[/\\\u0000-\u001f\u007f]/;

/**
 * Checks metadata before it is sealed, and again after it is opened (a document the server
 * could not have made, but one this code did not write either is still refused). Returns a
 * message a person can read, or null.
 */
export function attachmentMetadataProblem(meta: AttachmentMetadata): string | null {
  const name = meta.name;
  if (typeof name !== 'string' || name.trim() === '') return 'A file needs a name.';
  if ([...name].length > MAX_ATTACHMENT_NAME_LENGTH) return `A file name has at most ${MAX_ATTACHMENT_NAME_LENGTH} characters.`;
  if (FORBIDDEN_NAME_CHARACTERS.test(name)) return 'A file name cannot hold a slash, a backslash or a control character.';
  if (!Number.isSafeInteger(meta.size) || meta.size < 0) return 'A file size is a whole number of bytes.';
  if (typeof meta.type !== 'string' || meta.type.length > MAX_TYPE_LENGTH) return 'A file type has at most 255 characters.';
  return null;
}

/**
 * Seals `{ name, size, type }` as a padded v2 text under the file key, bound to the item and
 * file id: a rename seals it again (fresh IV) under the same key, and a key rotation leaves it
 * as it is. Throws RangeError on metadata attachmentMetadataProblem refuses.
 */
export async function sealAttachmentMetadata(fileKey: CryptoKey, ids: AttachmentIds, meta: AttachmentMetadata): Promise<string> {
  const problem = attachmentMetadataProblem(meta);
  if (problem !== null) throw new RangeError(problem);
  const json = JSON.stringify({ name: meta.name, size: meta.size, type: meta.type });
  return sealPadded(fileKey, utf8Encode(json), attachmentAad('meta', ids));
}

/** Opens sealed metadata; AttachmentDecryptionError('metadata') for anything that is not this file's. */
export async function openAttachmentMetadata(fileKey: CryptoKey, ids: AttachmentIds, text: string): Promise<AttachmentMetadata> {
  let parsed: unknown;
  try {
    const bytes = await openSealed(fileKey, text, attachmentAad('meta', ids), [PADDED_CIPHERTEXT_VERSION]);
    parsed = JSON.parse(utf8Decode(bytes));
  } catch {
    throw metadataRefused();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw metadataRefused();
  const keys = Object.keys(parsed).sort().join(',');
  if (keys !== 'name,size,type') throw metadataRefused();
  const meta = parsed as AttachmentMetadata;
  if (attachmentMetadataProblem(meta) !== null) throw metadataRefused();
  return { name: meta.name, size: meta.size, type: meta.type };
}

function metadataRefused(): AttachmentDecryptionError {
  return new AttachmentDecryptionError(
    'metadata',
    "This file's name and size do not open: the server changed them or served another file's. The file was not opened.",
  );
}
