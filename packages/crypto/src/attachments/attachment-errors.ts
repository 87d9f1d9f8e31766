/**
 * Why an attachment could not be opened. Every reason means the server (or the storage under
 * it) served something other than what this account sealed; nothing of a file that fails is
 * to be used, even the chunks that opened before the failure.
 * - 'key': the wrapped file key does not open under the vault key for this item and file id
 *   (another item's or another file's key, or changed bytes);
 * - 'metadata': the sealed name, size and type do not open under the file key;
 * - 'chunk': a chunk failed its check (changed, swapped, reordered, from another file, or a
 *   chunk in the place of the last one);
 * - 'truncated': the content ended before the size the metadata names;
 * - 'extra': more content than the size the metadata names.
 */
export type AttachmentFailureReason = 'key' | 'metadata' | 'chunk' | 'truncated' | 'extra';

export class AttachmentDecryptionError extends Error {
  override readonly name = 'AttachmentDecryptionError';
  constructor(
    readonly reason: AttachmentFailureReason,
    message: string,
  ) {
    super(message);
  }
}
