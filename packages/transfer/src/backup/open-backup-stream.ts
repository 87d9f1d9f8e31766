import { aesGcmDecrypt, AuthenticationFailedError } from '@lockit/crypto';
import { ImportFileError, ImportPasswordError } from '../import-format';
import {
  BACKUP_CONTENTS_WITH_FILES_VERSION,
  backupContentsSchema,
  type BackupContents,
  type BackupFile,
} from './backup-contents';
import { BACKUP_KEY_CHECK_BYTES, BACKUP_MAX_BYTES, BACKUP_SALT_BYTES, kdfPolicyProblem } from './backup-envelope';
import { deriveBackupKeySets, deriveOnThisThread, type DeriveBackupSecret } from './backup-keys';
import { fromBase64 } from './base64';
import { BACKUP_ALTERED_MESSAGE as ALTERED } from './open-backup';
import {
  BACKUP_FRAME_NONCE_BYTES,
  BACKUP_FRAME_OVERHEAD,
  BACKUP_FRAME_PLAINTEXT_BYTES,
  BACKUP_HEADER_LINE_MAX_BYTES,
  ByteReader,
  fileFrameCount,
  frameAad,
  parseStreamHeader,
  readFrameWord,
  streamHeaderAad,
  type FramePlace,
} from './backup-stream-format';

export const BACKUP_CUT_SHORT_MESSAGE = 'This backup is cut short: it ends before everything it lists. Nothing was read from it.';
export const BACKUP_EXTRA_MESSAGE = 'This backup has data after its last file: it was changed after it was made.';

/** One attached file of an opened backup, read in its turn. */
export interface OpenedBackupFile {
  /** Index of its item in `contents.items`, and its position among that item's files. */
  item: number;
  position: number;
  file: BackupFile;
  /**
   * Its bytes, checked frame by frame. Security invariant: pieces yielded before a throw are
   * not the file; a caller keeps them until this finishes and drops them all on a throw.
   */
  content: AsyncGenerator<Uint8Array>;
}

export interface OpenedBackupStream {
  contents: BackupContents;
  /** Each file in the order the contents list them; read each content to its end before the next. */
  files(): AsyncGenerator<OpenedBackupFile>;
}

function decode(text: string, what: string, bytes: number): Uint8Array<ArrayBuffer> {
  let value: Uint8Array<ArrayBuffer>;
  try {
    value = fromBase64(text);
  } catch {
    throw new ImportFileError(`This Lockit backup is damaged: its ${what} is not base64.`);
  }
  if (value.length !== bytes) throw new ImportFileError(`This Lockit backup is damaged: its ${what} must be ${bytes} bytes.`);
  return value;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * Reads one section's frames: each must be no longer than a full frame, every frame but the
 * last exactly full, and opens only at its index with its last flag under `place`. `sizes`
 * (for a file) fixes how many frames there are and how long each is, so cutting, adding,
 * reordering or swapping frames or whole files fails before or at decryption.
 */
async function* openSection(
  reader: ByteReader,
  key: CryptoKey,
  header: string,
  place: FramePlace,
  size: number | null,
  failed: (cause: 'cut' | 'altered') => ImportFileError,
): AsyncGenerator<Uint8Array> {
  const count = size === null ? null : fileFrameCount(size);
  for (let index = 0; ; index++) {
    const word = await reader.read(4);
    if (word === null) throw failed('cut');
    const { length, last } = readFrameWord(word);
    const plainLength = length - BACKUP_FRAME_OVERHEAD;
    const expectedLast = count === null ? last : index === count - 1;
    const expectedLength =
      count === null ? plainLength : expectedLast ? size! - index * BACKUP_FRAME_PLAINTEXT_BYTES : BACKUP_FRAME_PLAINTEXT_BYTES;
    if (
      plainLength < 0 ||
      plainLength > BACKUP_FRAME_PLAINTEXT_BYTES ||
      (!last && plainLength !== BACKUP_FRAME_PLAINTEXT_BYTES)
    ) {
      throw failed('altered');
    }
    if (last !== expectedLast || plainLength !== expectedLength) throw failed('altered');
    const sealed = await reader.read(length);
    if (sealed === null) throw failed('cut');
    try {
      yield await aesGcmDecrypt(
        key,
        sealed.subarray(0, BACKUP_FRAME_NONCE_BYTES),
        sealed.subarray(BACKUP_FRAME_NONCE_BYTES),
        frameAad(header, place, index, last),
      );
    } catch (error) {
      if (error instanceof AuthenticationFailedError) throw failed('altered');
      throw error;
    }
    if (last) return;
  }
}

/**
 * Opens a version 2 backup read from `source` (pieces of any size): the header line checked,
 * its KDF settings checked against the sign-in policy BEFORE any key is derived, the key check
 * compared, then the contents' frames opened and parsed against the allow-list. The files are
 * read only when `files()` is walked, frame by frame: nothing holds a whole file.
 *
 * Throws ImportPasswordError('missing' | 'wrong'), or ImportFileError for a file that is not a
 * version 2 backup, is damaged, cut short, lengthened or altered (a frame changed, dropped,
 * moved, or a file swapped with another's, of this item or another). Never returns part of the
 * contents; a file's content throws at the first frame that fails, and after its last file
 * `files()` throws if anything follows.
 */
export async function openBackupStream(
  source: AsyncIterable<Uint8Array>,
  password: string | undefined,
  { derive = deriveOnThisThread }: { derive?: DeriveBackupSecret } = {},
): Promise<OpenedBackupStream> {
  const reader = new ByteReader(source);
  const line = await reader.readLine(BACKUP_HEADER_LINE_MAX_BYTES);
  if (line === null) throw new ImportFileError('This file is not a Lockit backup: it has no header line.');
  let header;
  try {
    header = parseStreamHeader(new TextDecoder('utf-8', { fatal: true }).decode(line).replace(/^\uFEFF/, ''));
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError('This file is not a Lockit backup: its header line is not JSON.');
  }
  const problem = kdfPolicyProblem(header.kdf);
  if (problem !== null) throw new ImportFileError(problem);
  const salt = decode(header.kdf.salt, 'salt', BACKUP_SALT_BYTES);
  const storedCheck = decode(header.keyCheck, 'key check', BACKUP_KEY_CHECK_BYTES);
  if (password === undefined || password === '') throw new ImportPasswordError('missing');
  const { algorithm: _algorithm, salt: _salt, ...params } = header.kdf;
  const keys = (await deriveBackupKeySets(password, salt, { algorithm: 'argon2id', ...params }, derive, [2]))[2];
  if (!sameBytes(keys.keyCheck, storedCheck)) throw new ImportPasswordError('wrong');

  const aad = streamHeaderAad(header);
  const contentsFailed = (cause: 'cut' | 'altered') => new ImportFileError(cause === 'cut' ? BACKUP_CUT_SHORT_MESSAGE : ALTERED);
  const pieces: Uint8Array[] = [];
  let total = 0;
  for await (const piece of openSection(reader, keys.key, aad, { section: 'contents' }, null, contentsFailed)) {
    total += piece.length;
    if (total > BACKUP_MAX_BYTES) throw new ImportFileError('This backup lists more than Lockit reads.');
    pieces.push(piece);
  }
  const plaintext = new Uint8Array(total);
  pieces.reduce((at, piece) => (plaintext.set(piece, at), piece.fill(0), at + piece.length), 0);
  const contents = parseContents(plaintext);

  async function* files(): AsyncGenerator<OpenedBackupFile> {
    let number = 0;
    for (const [item, { name, files: listed = [] }] of contents.items.entries()) {
      for (const [position, file] of listed.entries()) {
        const place: FramePlace = { section: 'file', number: number++, item, position };
        const failed = (cause: 'cut' | 'altered') =>
          new ImportFileError(
            cause === 'cut'
              ? `This backup is cut short: it ends inside "${file.name}" of "${name}". That file and the ones after it are not in it.`
              : `The file "${file.name}" of "${name}" in this backup failed its check: it was changed, cut, moved or swapped after the backup was made.`,
          );
        let finished = false;
        const content = (async function* () {
          yield* openSection(reader, keys.key, aad, place, file.size, failed);
          finished = true;
        })();
        yield { item, position, file, content };
        if (!finished) throw new Error('Each file of a backup must be read to its end before the next.');
      }
    }
    if (!(await reader.atEnd())) throw new ImportFileError(BACKUP_EXTRA_MESSAGE);
  }
  return { contents, files };
}

function parseContents(plaintext: Uint8Array): BackupContents {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    throw new ImportFileError('This Lockit backup opened, but what it holds is not JSON.');
  } finally {
    plaintext.fill(0);
  }
  const contents = backupContentsSchema.safeParse(json);
  if (!contents.success || contents.data.version !== BACKUP_CONTENTS_WITH_FILES_VERSION) {
    const issue = contents.error?.issues[0] ?? { path: ['version'], message: 'must be 2 in a version 2 file' };
    throw new ImportFileError(
      `This Lockit backup opened, but "${issue.path.join('.')}" is not what Lockit writes: ${issue.message}.`,
    );
  }
  return contents.data;
}
