import { AttachmentDecryptionError } from '../attachments/attachment-errors';
import { openChunkStream, sealChunkStream, type ChunkBinding } from '../attachments/attachment-chunks';
import { utf8Encode } from '../encoding';
import { ShareOpenError } from './share-errors';
import { checkShareId } from './share-key';

/**
 * `lockit/v1/share-file-chunk|<share id>|<index>|last|more`: a shared file's chunk proves the
 * share it belongs to, where it stands and whether it is the last. The prefix differs from the
 * share's content AAD, so a chunk never opens as the content under the same key, or back.
 */
function shareFileBinding(id: string): ChunkBinding {
  const shareId = checkShareId(id);
  return (index, last) => utf8Encode(['lockit/v1/share-file-chunk', shareId, String(index), last ? 'last' : 'more'].join('|'));
}

/**
 * Seals a file for share `id` under the share's key (sealShareKeyed), in the attachment chunk
 * format (64 KiB chunks, each `iv | ciphertext | tag`): at most two chunks of the file are held
 * at once, whatever its size. `size` must be what `source` gives (RangeError otherwise).
 */
export function sealSharedFileStream(
  key: CryptoKey,
  id: string,
  source: AsyncIterable<Uint8Array>,
  size: number,
): AsyncGenerator<Uint8Array> {
  return sealChunkStream(key, shareFileBinding(id), source, size);
}

/**
 * Opens a shared file as it arrives, chunk by chunk, for the size sealed in the share's
 * content. A chunk changed, reordered, from another share or under another key, a file cut
 * short at any byte or one with bytes added throws ShareOpenError('tampered') with a message
 * a person can read.
 *
 * Security invariant: what was yielded before a throw is not the file; the caller keeps the
 * pieces until the generator finishes and discards them all on a throw, never saving them.
 */
export async function* openSharedFileStream(
  key: CryptoKey,
  id: string,
  source: AsyncIterable<Uint8Array>,
  size: number,
): AsyncGenerator<Uint8Array> {
  try {
    yield* openChunkStream(key, shareFileBinding(id), source, size);
  } catch (error) {
    if (error instanceof AttachmentDecryptionError) throw new ShareOpenError('tampered', FILE_MESSAGES[error.reason]);
    throw error;
  }
}

const FILE_MESSAGES: Record<AttachmentDecryptionError['reason'], string> = {
  chunk: 'This file was changed after it was shared: a part of it failed its check. Nothing was saved.',
  truncated: 'This file arrived cut short, so it was not saved. Try the download again if the link allows.',
  extra: 'This file arrived with more data than was shared: it was changed. Nothing was saved.',
  key: 'This file could not be opened with this link. Nothing was saved.',
  metadata: 'This file could not be opened with this link. Nothing was saved.',
};
