import { aesGcmEncrypt } from '@lockit/crypto';
import type { BackupContents, BackupFile } from './backup-contents';
import type { BackupKeys } from './backup-keys';
import { toBase64 } from './base64';
import {
  BACKUP_FRAME_NONCE_BYTES,
  BACKUP_FRAME_PLAINTEXT_BYTES,
  frameAad,
  frameWord,
  streamHeaderAad,
  type BackupStreamHeader,
  type FramePlace,
} from './backup-stream-format';

/** Where a file stands in the contents: its item's index and its position among the item's files. */
export interface BackupFilePlace {
  item: number;
  position: number;
  file: BackupFile;
}

/** The bytes of one listed file, in pieces of any size; it must give exactly the size listed. */
export type BackupFileReader = (place: BackupFilePlace) => AsyncIterable<Uint8Array>;

/** One frame: its word, then a fresh nonce, the ciphertext and the tag. */
async function frame(key: CryptoKey, aad: Uint8Array, plaintext: Uint8Array, last: boolean): Promise<Uint8Array> {
  const nonce = globalThis.crypto.getRandomValues(new Uint8Array(BACKUP_FRAME_NONCE_BYTES));
  const sealed = await aesGcmEncrypt(key, nonce, plaintext, aad);
  const length = nonce.length + sealed.length;
  const out = new Uint8Array(4 + length);
  out.set(frameWord(length, last));
  out.set(nonce, 4);
  out.set(sealed, 4 + nonce.length);
  return out;
}

/**
 * Re-cuts `source` into frames of exactly BACKUP_FRAME_PLAINTEXT_BYTES (the last shorter, an
 * empty source one empty frame), each sealed for `place` and its index; one frame is held
 * back until the next byte shows it is not the last. Throws RangeError when the source gives
 * other than `size` bytes (when a size is given), so the contents never list a size the bytes
 * do not have.
 */
async function* sealSection(
  key: CryptoKey,
  header: string,
  place: FramePlace,
  source: AsyncIterable<Uint8Array>,
  size: number | null,
): AsyncGenerator<Uint8Array> {
  let buffer = new Uint8Array(BACKUP_FRAME_PLAINTEXT_BYTES);
  let filled = 0;
  let index = 0;
  let total = 0;
  let pending: Uint8Array | null = null;
  for await (const piece of source) {
    total += piece.length;
    if (size !== null && total > size) throw new RangeError('A file gave more bytes than its size while the backup was made.');
    let offset = 0;
    while (offset < piece.length) {
      const take = Math.min(piece.length - offset, BACKUP_FRAME_PLAINTEXT_BYTES - filled);
      buffer.set(piece.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === BACKUP_FRAME_PLAINTEXT_BYTES) {
        if (pending) yield await frame(key, frameAad(header, place, index++, false), pending, false);
        pending = buffer;
        buffer = new Uint8Array(BACKUP_FRAME_PLAINTEXT_BYTES);
        filled = 0;
      }
    }
  }
  if (size !== null && total !== size) throw new RangeError('A file gave fewer bytes than its size while the backup was made.');
  if (pending && filled === 0) {
    yield await frame(key, frameAad(header, place, index, true), pending, true);
    pending.fill(0);
    return;
  }
  if (pending) yield await frame(key, frameAad(header, place, index++, false), pending, false);
  yield await frame(key, frameAad(header, place, index, true), buffer.subarray(0, filled), true);
  pending?.fill(0);
  buffer.fill(0);
}

/**
 * A version 2 file, piece by piece: the header line, the contents' frames, then each file's
 * frames in the order the contents list them, each read from `readFile` only when its turn
 * comes, so no more than two frames of plaintext are held at once whatever the files' sizes.
 *
 * Security invariants: every frame is bound (AAD) to the header, its section, its file's
 * number, item and position, its index and whether it is the last, under the backup's own
 * key (never the vault key); the contents are checked by the caller before this runs.
 */
export async function* sealStream(
  keys: BackupKeys,
  header: Omit<BackupStreamHeader, 'keyCheck'>,
  contents: BackupContents,
  readFile: BackupFileReader,
): AsyncGenerator<Uint8Array> {
  const full: BackupStreamHeader = { ...header, keyCheck: toBase64(keys.keyCheck) };
  yield new TextEncoder().encode(`${JSON.stringify(full)}\n`);
  const aad = streamHeaderAad(header);
  const plaintext = new TextEncoder().encode(JSON.stringify(contents));
  async function* whole() {
    yield plaintext;
  }
  yield* sealSection(keys.key, aad, { section: 'contents' }, whole(), null);
  plaintext.fill(0);
  let number = 0;
  for (const [item, { files = [] }] of contents.items.entries()) {
    for (const [position, file] of files.entries()) {
      const place: FramePlace = { section: 'file', number: number++, item, position };
      yield* sealSection(keys.key, aad, place, readFile({ item, position, file }), file.size);
    }
  }
}
