import { z } from 'zod';
import { ImportFileError } from '../import-format';
import { BACKUP_CIPHER, BACKUP_FORMAT, type BackupEnvelope } from './backup-envelope';

/**
 * Version 2 of the backup file (docs/backup-format.md, "Version 2"): a header line of JSON,
 * then frames. A frame is a 4-byte big-endian word, whose high bit marks the last frame of its
 * section and whose low 31 bits are the length of what follows, then `nonce (12) | AES-256-GCM
 * ciphertext | tag (16)` of at most 64 KiB of plaintext. The sections: the contents (the
 * version 1 plaintext, items listing their files), then each file in the order the contents
 * list them. Every frame's associated data names the header, the section, the file's place
 * (its number, its item, its position in the item) and the frame's index and last flag.
 */

export const BACKUP_STREAM_VERSION = 2;
/** Plaintext bytes per frame: every frame of a section but its last holds exactly this many. */
export const BACKUP_FRAME_PLAINTEXT_BYTES = 64 * 1024;
export const BACKUP_FRAME_NONCE_BYTES = 12;
export const BACKUP_FRAME_TAG_BYTES = 16;
export const BACKUP_FRAME_OVERHEAD = BACKUP_FRAME_NONCE_BYTES + BACKUP_FRAME_TAG_BYTES;
/** The header line's longest length, LF included: a reader looks no further for it. */
export const BACKUP_HEADER_LINE_MAX_BYTES = 4096;
const LAST_FLAG = 0x8000_0000;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

export const backupStreamHeaderSchema = z.strictObject({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_STREAM_VERSION),
  kdf: z.strictObject({
    algorithm: z.literal('argon2id'),
    memoryKiB: z.int(),
    iterations: z.int(),
    parallelism: z.int(),
    salt: base64,
  }),
  cipher: z.strictObject({ algorithm: z.literal(BACKUP_CIPHER) }),
  keyCheck: base64,
});
export type BackupStreamHeader = z.infer<typeof backupStreamHeaderSchema>;

/** `lockit-backup|2|argon2id|<m>|<t>|<p>|<salt>|AES-256-GCM`: what every frame's AAD starts with. */
export function streamHeaderAad(header: Pick<BackupStreamHeader, 'format' | 'version' | 'kdf' | 'cipher'>): string {
  const { kdf } = header;
  return [
    header.format,
    header.version,
    kdf.algorithm,
    kdf.memoryKiB,
    kdf.iterations,
    kdf.parallelism,
    kdf.salt,
    header.cipher.algorithm,
  ].join('|');
}

/** Where a frame stands: in the contents, or in the file with this number, item and position. */
export type FramePlace = { section: 'contents' } | { section: 'file'; number: number; item: number; position: number };

/** `<header>|contents|<index>|last|more` or `<header>|file|<number>|<item>|<position>|<index>|last|more`. */
export function frameAad(headerAad: string, place: FramePlace, index: number, last: boolean): Uint8Array {
  const where = place.section === 'contents' ? ['contents'] : ['file', place.number, place.item, place.position];
  return new TextEncoder().encode([headerAad, ...where, index, last ? 'last' : 'more'].join('|'));
}

/** The 4-byte word before a frame's bytes. */
export function frameWord(length: number, last: boolean): Uint8Array {
  const word = new Uint8Array(4);
  new DataView(word.buffer).setUint32(0, (last ? LAST_FLAG : 0) + length);
  return word;
}

export function readFrameWord(word: Uint8Array): { length: number; last: boolean } {
  const value = new DataView(word.buffer, word.byteOffset, 4).getUint32(0);
  return { length: value & 0x7fff_ffff, last: value >= LAST_FLAG };
}

/** The frame count of a file of `size` bytes: an empty file is one empty last frame. */
export function fileFrameCount(size: number): number {
  return Math.max(1, Math.ceil(size / BACKUP_FRAME_PLAINTEXT_BYTES));
}

/**
 * The version 2 header line of a file's first bytes, or null when the file does not start
 * with one (a version 1 file starts with a line holding only `{`).
 */
export function streamHeaderLine(head: Uint8Array): string | null {
  const newline = head.subarray(0, BACKUP_HEADER_LINE_MAX_BYTES).indexOf(0x0a);
  if (newline === -1) return null;
  const line = new TextDecoder().decode(head.subarray(0, newline)).replace(/^\uFEFF/, '');
  try {
    const json = JSON.parse(line) as Partial<BackupEnvelope> | null;
    return typeof json === 'object' && json !== null && json.format === BACKUP_FORMAT && json.version !== 1 ? line : null;
  } catch {
    return null;
  }
}

/** The header line checked, or an ImportFileError saying what is wrong. */
export function parseStreamHeader(line: string): BackupStreamHeader {
  const json = JSON.parse(line) as { version?: unknown };
  if (json.version !== BACKUP_STREAM_VERSION) {
    throw new ImportFileError(
      typeof json.version === 'number' && json.version > BACKUP_STREAM_VERSION
        ? `This backup has format version ${json.version}, newer than this Lockit reads (${BACKUP_STREAM_VERSION}). Update Lockit to open it.`
        : 'This Lockit backup has no format version Lockit knows.',
    );
  }
  const parsed = backupStreamHeaderSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportFileError(`This Lockit backup is damaged: "${issue?.path.join('.') ?? ''}" ${issue?.message ?? 'is wrong'}.`);
  }
  return parsed.data;
}

/** Reads exact byte counts from pieces of any size (a file stream, or one whole array). */
export class ByteReader {
  private readonly pieces: AsyncIterator<Uint8Array>;
  private current: Uint8Array = new Uint8Array(0);
  private offset = 0;
  /** Bytes handed out so far. */
  position = 0;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.pieces = source[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    while (this.offset >= this.current.length) {
      const next = await this.pieces.next();
      if (next.done) return false;
      this.current = next.value;
      this.offset = 0;
    }
    return true;
  }

  /** Exactly `count` bytes, or null when the source ends before them. */
  async read(count: number): Promise<Uint8Array<ArrayBuffer> | null> {
    const out = new Uint8Array(count);
    let filled = 0;
    while (filled < count) {
      if (!(await this.fill())) return null;
      const take = Math.min(count - filled, this.current.length - this.offset);
      out.set(this.current.subarray(this.offset, this.offset + take), filled);
      this.offset += take;
      filled += take;
    }
    this.position += count;
    return out;
  }

  /** The bytes up to the first LF (dropped), looking at most `max` bytes; null when there is none. */
  async readLine(max: number): Promise<Uint8Array | null> {
    const bytes: number[] = [];
    while (bytes.length < max) {
      if (!(await this.fill())) return null;
      const byte = this.current[this.offset++]!;
      this.position += 1;
      if (byte === 0x0a) return Uint8Array.from(bytes);
      bytes.push(byte);
    }
    return null;
  }

  async atEnd(): Promise<boolean> {
    return !(await this.fill());
  }
}
