import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES, GCM_TAG_BYTES } from '../aes-gcm';
import { AuthenticationFailedError } from '../errors';
import { randomBytes } from '../random';
import { AttachmentDecryptionError } from './attachment-errors';
import { attachmentAad, type AttachmentIds } from './attachment-ids';

/** Plaintext bytes per chunk: every chunk but the last holds exactly this many. */
export const ATTACHMENT_CHUNK_BYTES = 64 * 1024;
/** What sealing adds to each chunk: its IV before it, the GCM tag after it. */
export const ATTACHMENT_CHUNK_OVERHEAD = GCM_IV_BYTES + GCM_TAG_BYTES;
/** A full sealed chunk: `iv (12) | ciphertext (65,536) | tag (16)`. */
export const SEALED_CHUNK_BYTES = ATTACHMENT_CHUNK_BYTES + ATTACHMENT_CHUNK_OVERHEAD;

/** How many chunks a file of `size` bytes takes: an empty file is one empty last chunk. */
export function attachmentChunkCount(size: number): number {
  return Math.max(1, Math.ceil(size / ATTACHMENT_CHUNK_BYTES));
}

/** The exact length of a file of `size` bytes once sealed: what the server stores and serves. */
export function sealedAttachmentSize(size: number): number {
  return size + attachmentChunkCount(size) * ATTACHMENT_CHUNK_OVERHEAD;
}

/**
 * The file size a sealed length stands for (the inverse of sealedAttachmentSize), or null for a
 * length no file seals to. Only for showing a size: what the chunks hold is checked on opening.
 */
export function plainAttachmentSize(sealed: number): number | null {
  if (!Number.isSafeInteger(sealed) || sealed < ATTACHMENT_CHUNK_OVERHEAD) return null;
  const size = sealed - Math.ceil(sealed / SEALED_CHUNK_BYTES) * ATTACHMENT_CHUNK_OVERHEAD;
  return size >= 0 && sealedAttachmentSize(size) === sealed ? size : null;
}

/**
 * What a chunk is bound to (its AAD): the file it belongs to, its index and whether it is the
 * last. Attachments bind to their item and file id, shared files to their share id; the same
 * chunk format serves both.
 */
export type ChunkBinding = (index: number, last: boolean) => Uint8Array;

/** `…|<index>|last` or `…|<index>|more`: where a chunk stands is part of what it proves. */
function attachmentBinding(ids: AttachmentIds): ChunkBinding {
  return (index, last) => attachmentAad('chunk', ids, String(index), last ? 'last' : 'more');
}

/** One chunk sealed at `index`; `last` marks the final one, so dropping chunks after it is seen. */
export function sealAttachmentChunk(
  fileKey: CryptoKey,
  ids: AttachmentIds,
  index: number,
  last: boolean,
  plaintext: Uint8Array,
): Promise<Uint8Array> {
  return sealChunk(fileKey, attachmentBinding(ids), index, last, plaintext);
}

async function sealChunk(
  fileKey: CryptoKey,
  bind: ChunkBinding,
  index: number,
  last: boolean,
  plaintext: Uint8Array,
): Promise<Uint8Array> {
  if (plaintext.length > ATTACHMENT_CHUNK_BYTES || (!last && plaintext.length !== ATTACHMENT_CHUNK_BYTES)) {
    throw new RangeError('Only the last chunk of a file may be shorter than 64 KiB.');
  }
  const iv = randomBytes(GCM_IV_BYTES);
  const data = await aesGcmEncrypt(fileKey, iv, plaintext, bind(index, last));
  const out = new Uint8Array(GCM_IV_BYTES + data.length);
  out.set(iv);
  out.set(data, GCM_IV_BYTES);
  return out;
}

/** Opens the chunk that must stand at `index` (and be the last or not); throws AttachmentDecryptionError('chunk'). */
export function openAttachmentChunk(
  fileKey: CryptoKey,
  ids: AttachmentIds,
  index: number,
  last: boolean,
  sealed: Uint8Array,
): Promise<Uint8Array> {
  return openChunk(fileKey, attachmentBinding(ids), index, last, sealed);
}

async function openChunk(
  fileKey: CryptoKey,
  bind: ChunkBinding,
  index: number,
  last: boolean,
  sealed: Uint8Array,
): Promise<Uint8Array> {
  try {
    if (sealed.length < ATTACHMENT_CHUNK_OVERHEAD) throw new AuthenticationFailedError();
    return await aesGcmDecrypt(fileKey, sealed.subarray(0, GCM_IV_BYTES), sealed.subarray(GCM_IV_BYTES), bind(index, last));
  } catch (error) {
    if (!(error instanceof AuthenticationFailedError)) throw error;
    throw new AttachmentDecryptionError(
      'chunk',
      `Part ${index + 1} of this file failed its check: the server changed, swapped, reordered or replaced parts of the file. The file was not saved.`,
    );
  }
}

/**
 * Seals a file read from `source` (pieces of any size) into chunks of ATTACHMENT_CHUNK_BYTES,
 * yielding each sealed chunk as soon as it is known not to be the last: at most two chunks
 * of the file are held at once, whatever its size. `expectedSize`, the size sealed into the
 * metadata, must be what the source gives: a source that gives more or fewer bytes throws
 * RangeError, so the metadata never names a size the content does not have.
 */
export function sealAttachmentStream(
  fileKey: CryptoKey,
  ids: AttachmentIds,
  source: AsyncIterable<Uint8Array>,
  expectedSize: number,
): AsyncGenerator<Uint8Array> {
  return sealChunkStream(fileKey, attachmentBinding(ids), source, expectedSize);
}

/** sealAttachmentStream for any binding (a shared file's). */
export async function* sealChunkStream(
  fileKey: CryptoKey,
  bind: ChunkBinding,
  source: AsyncIterable<Uint8Array>,
  expectedSize: number,
): AsyncGenerator<Uint8Array> {
  let buffer = new Uint8Array(ATTACHMENT_CHUNK_BYTES);
  let filled = 0;
  let index = 0;
  let total = 0;
  let pending: Uint8Array | null = null;
  for await (const piece of source) {
    total += piece.length;
    if (total > expectedSize) throw new RangeError('The file grew while it was being read.');
    let offset = 0;
    while (offset < piece.length) {
      const take = Math.min(piece.length - offset, ATTACHMENT_CHUNK_BYTES - filled);
      buffer.set(piece.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === ATTACHMENT_CHUNK_BYTES) {
        // A full chunk is the last only if nothing follows: keep it until more arrives.
        if (pending) yield await sealChunk(fileKey, bind, index++, false, pending);
        pending = buffer;
        buffer = new Uint8Array(ATTACHMENT_CHUNK_BYTES);
        filled = 0;
      }
    }
  }
  if (total !== expectedSize) throw new RangeError('The file changed size while it was being read.');
  if (pending && filled === 0) {
    yield await sealChunk(fileKey, bind, index, true, pending);
    return;
  }
  if (pending) yield await sealChunk(fileKey, bind, index++, false, pending);
  yield await sealChunk(fileKey, bind, index, true, buffer.subarray(0, filled));
}

/**
 * Opens a sealed file read from `source` (pieces of any size, as a network stream gives them),
 * yielding plaintext chunk by chunk. Each chunk is opened at the index and last-flag its
 * position demands for a file of `size` bytes (the size from the opened metadata), so a
 * changed, reordered, swapped or spliced chunk, a content cut short at any byte (even at a
 * chunk boundary) and bytes past the end all throw AttachmentDecryptionError.
 *
 * Security invariant: what was yielded before a throw is not the file. A caller keeps the
 * pieces until the generator finishes and discards them all on a throw.
 */
export function openAttachmentStream(
  fileKey: CryptoKey,
  ids: AttachmentIds,
  source: AsyncIterable<Uint8Array>,
  size: number,
): AsyncGenerator<Uint8Array> {
  return openChunkStream(fileKey, attachmentBinding(ids), source, size);
}

/** openAttachmentStream for any binding (a shared file's); the same invariant holds. */
export async function* openChunkStream(
  fileKey: CryptoKey,
  bind: ChunkBinding,
  source: AsyncIterable<Uint8Array>,
  size: number,
): AsyncGenerator<Uint8Array> {
  const count = attachmentChunkCount(size);
  const lastLength = sealedAttachmentSize(size) - (count - 1) * SEALED_CHUNK_BYTES;
  const lengthOf = (index: number): number => (index === count - 1 ? lastLength : SEALED_CHUNK_BYTES);
  let index = 0;
  let buffer = new Uint8Array(lengthOf(0));
  let filled = 0;
  for await (const piece of source) {
    let offset = 0;
    while (offset < piece.length) {
      if (index === count) throw extraBytes();
      const take = Math.min(piece.length - offset, buffer.length - filled);
      buffer.set(piece.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === buffer.length) {
        yield await openChunk(fileKey, bind, index, index === count - 1, buffer);
        index += 1;
        if (index < count) buffer = new Uint8Array(lengthOf(index));
        filled = 0;
      }
    }
  }
  if (index < count) {
    throw new AttachmentDecryptionError(
      'truncated',
      'This file arrived cut short: the server sent less than the file holds. The file was not saved.',
    );
  }
}

function extraBytes(): AttachmentDecryptionError {
  return new AttachmentDecryptionError(
    'extra',
    'This file arrived with more data than it holds: the server added to it. The file was not saved.',
  );
}
