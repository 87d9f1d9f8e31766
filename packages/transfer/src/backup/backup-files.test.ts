import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sampleVault, TEST_KDF } from '../../test/fixtures/sample-vault';
import { ImportFileError, ImportPasswordError } from '../import-format';
import type { BackupContents, BackupFile } from './backup-contents';
import { BACKUP_FRAME_PLAINTEXT_BYTES, frameAad, readFrameWord } from './backup-stream-format';
import { openBackup } from './open-backup';
import { openBackupFile } from './open-backup-file';
import { BACKUP_ALTERED_MESSAGE } from './open-backup';
import { BACKUP_CUT_SHORT_MESSAGE, BACKUP_EXTRA_MESSAGE, openBackupStream } from './open-backup-stream';
import { backupSealer, sealBackup } from './seal-backup';

const PASSWORD = 'correct horse battery staple';
const SLOW = { timeout: 60_000 };
const FRAME = BACKUP_FRAME_PLAINTEXT_BYTES;

/** Deterministic bytes that differ per file, so a swapped file could never pass as equal. */
function bytesOf(size: number, seed: number): Uint8Array {
  return new Uint8Array(size).map((_, i) => (i * 7 + seed * 13 + (i >> 8)) & 0xff);
}

const fileOf = (name: string, size: number): BackupFile => ({
  name,
  size,
  type: 'application/octet-stream',
  createdAt: '2024-03-02T10:00:00.000Z',
});

/** The sample vault as version 2: two items with files (one multi-frame, one empty, one exactly a frame). */
function vaultWithFiles(): { contents: BackupContents; bytes: Map<string, Uint8Array> } {
  const vault = sampleVault();
  const [first, second, ...rest] = vault.items;
  const files: Array<[number, BackupFile]> = [
    [0, fileOf('scan.pdf', 3 * FRAME + 100)],
    [0, fileOf('empty.txt', 0)],
    [1, fileOf('key.bin', FRAME)],
    [1, fileOf('same-size.bin', FRAME)],
  ];
  const bytes = new Map<string, Uint8Array>();
  files.forEach(([, file], seed) => bytes.set(file.name, bytesOf(file.size, seed)));
  const listed = (index: number) => files.filter(([item]) => item === index).map(([, file]) => file);
  return {
    contents: {
      ...vault,
      version: 2,
      items: [{ ...first!, files: listed(0) }, { ...second!, files: listed(1) }, ...rest],
    },
    bytes,
  };
}

async function* inPieces(bytes: Uint8Array, size = 10_000) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** The sealed file as the sealer yields it: [header line, frame, frame, ...]. */
async function sealedPieces(): Promise<Uint8Array[]> {
  const { contents, bytes } = vaultWithFiles();
  const seal = await backupSealer(PASSWORD, { kdf: TEST_KDF });
  const pieces: Uint8Array[] = [];
  for await (const piece of seal.withFiles(contents, ({ file }) => inPieces(bytes.get(file.name)!))) pieces.push(piece);
  return pieces;
}
let shared: Promise<Uint8Array[]> | undefined;
const sealed = () => (shared ??= sealedPieces());

const join = (pieces: Uint8Array[]) => new Uint8Array(Buffer.concat(pieces));

/** Index of the first frame of each section: contents, then the four files. */
function sections(pieces: Uint8Array[]): number[] {
  const starts = [1];
  for (let i = 1; i < pieces.length; i++) if (readFrameWord(pieces[i]!).last && i + 1 < pieces.length) starts.push(i + 1);
  return starts;
}

describe('Lockit backup version 2 (files)', SLOW, () => {
  it('opens to the contents and every file byte for byte, bound to its item and position', async () => {
    const { contents, bytes } = vaultWithFiles();
    const opened = await openBackupFile(join(await sealed()), PASSWORD);
    expect(opened.contents).toEqual(contents);
    expect([...opened.files.keys()]).toEqual([0, 1]);
    for (const list of opened.files.values()) {
      for (const file of list) expect(Buffer.from(file.bytes).equals(Buffer.from(bytes.get(file.name)!))).toBe(true);
    }
    expect(opened.files.get(0)!.map((file) => file.name)).toEqual(['scan.pdf', 'empty.txt']);
  });

  it('writes the documented header line and frames: 64 KiB of plaintext each, a fresh nonce each', async () => {
    const pieces = await sealed();
    const header = JSON.parse(new TextDecoder().decode(pieces[0]!)) as Record<string, unknown>;
    expect(Object.keys(header)).toEqual(['format', 'version', 'kdf', 'cipher', 'keyCheck']);
    expect(header).toMatchObject({ format: 'lockit-backup', version: 2, cipher: { algorithm: 'AES-256-GCM' } });
    expect(pieces[0]!.at(-1)).toBe(0x0a);
    // Contents, then 4 + 1 + 1 + 1 frames for the four files.
    const starts = sections(pieces);
    expect(starts).toHaveLength(5);
    expect(pieces.length - starts[1]!).toBe(7);
    const scan = pieces.slice(starts[1]!, starts[2]!).map((frame) => readFrameWord(frame));
    expect(scan.map((word) => word.length - 28)).toEqual([FRAME, FRAME, FRAME, 100]);
    expect(scan.map((word) => word.last)).toEqual([false, false, false, true]);
    const nonces = new Set(pieces.slice(1).map((frame) => Buffer.from(frame.subarray(4, 16)).toString('hex')));
    expect(nonces.size).toBe(pieces.length - 1);
    expect(Buffer.from(join(pieces)).includes('alice')).toBe(false);
    expect(new TextDecoder().decode(frameAad('H', { section: 'file', number: 3, item: 1, position: 1 }, 0, true))).toBe(
      'H|file|3|1|1|0|last',
    );
  });

  it('says a wrong password is wrong and asks for a missing one', async () => {
    const file = join(await sealed());
    await expect(openBackupFile(file, 'not the password at all')).rejects.toEqual(new ImportPasswordError('wrong'));
    await expect(openBackupFile(file, undefined)).rejects.toEqual(new ImportPasswordError('missing'));
  });

  it('refuses a changed byte of the contents or of a file, naming the file', async () => {
    const pieces = await sealed();
    const [, scanStart] = sections(pieces);
    const flip = (index: number) =>
      pieces.map((piece, i) => (i === index ? piece.map((b, at) => (at === 20 ? b ^ 1 : b)) : piece));
    await expect(openBackupFile(join(flip(1)), PASSWORD)).rejects.toThrow(BACKUP_ALTERED_MESSAGE);
    await expect(openBackupFile(join(flip(scanStart! + 1)), PASSWORD)).rejects.toThrow(
      /"scan.pdf" of ".+" in this backup failed its check/,
    );
  });

  it('refuses frames of a file reordered, and files swapped between items or within one', async () => {
    const pieces = await sealed();
    const [, scan, , key, same] = sections(pieces);
    const reordered = [...pieces];
    [reordered[scan!], reordered[scan! + 1]] = [pieces[scan! + 1]!, pieces[scan!]!];
    await expect(openBackupFile(join(reordered), PASSWORD)).rejects.toThrow(/"scan.pdf" .* failed its check/);
    // key.bin and same-size.bin have one frame of equal length each: only their binding tells them apart.
    const swapped = [...pieces];
    [swapped[key!], swapped[same!]] = [pieces[same!]!, pieces[key!]!];
    await expect(openBackupFile(join(swapped), PASSWORD)).rejects.toThrow(/"key.bin" .* failed its check/);
    // The empty file of item 0 moved after item 1's files.
    const moved = [...pieces.slice(0, key! - 1), ...pieces.slice(key!), pieces[key! - 1]!];
    await expect(openBackupFile(join(moved), PASSWORD)).rejects.toThrow(ImportFileError);
  });

  it('refuses a file cut short anywhere (in a frame, at a frame, a whole file dropped) or lengthened', async () => {
    const pieces = await sealed();
    const whole = join(pieces);
    await expect(openBackupFile(whole.subarray(0, whole.length - 5), PASSWORD)).rejects.toThrow(/cut short/);
    await expect(openBackupFile(join(pieces.slice(0, -1)), PASSWORD)).rejects.toThrow(/cut short/);
    // Streamed, the cut is found where it is: the last file's frame is missing.
    const streamed = async () => {
      const opened = await openBackupStream(inPieces(join(pieces.slice(0, -1))), PASSWORD);
      for await (const { content } of opened.files()) for await (const _ of content) void _;
    };
    await expect(streamed()).rejects.toThrow(/cut short: it ends inside "same-size.bin"/);
    const [, scan] = sections(pieces);
    await expect(openBackupFile(join(pieces.slice(0, scan)), PASSWORD)).rejects.toThrow(/cut short/);
    await expect(openBackupFile(join([pieces[0]!, pieces[1]!.subarray(0, 10)]), PASSWORD)).rejects.toThrow(
      BACKUP_CUT_SHORT_MESSAGE,
    );
    await expect(openBackupFile(join([...pieces, new Uint8Array([0])]), PASSWORD)).rejects.toThrow(BACKUP_EXTRA_MESSAGE);
    // A frame that claims to be the last before its time.
    const early = pieces.map((piece, i) => (i === scan ? piece.map((b, at) => (at === 0 ? b | 0x80 : b)) : piece));
    await expect(openBackupFile(join(early), PASSWORD)).rejects.toThrow(/"scan.pdf" .* failed its check/);
  });

  it('refuses a changed header, a newer version, and KDF settings outside the policy', async () => {
    const pieces = await sealed();
    type Header = { version: number; kdf: { iterations: number; memoryKiB: number } };
    const withHeader = (change: (header: Header) => void) => {
      const header = JSON.parse(new TextDecoder().decode(pieces[0]!)) as Header;
      change(header);
      return join([new TextEncoder().encode(`${JSON.stringify(header)}\n`), ...pieces.slice(1)]);
    };
    await expect(
      openBackupFile(
        withHeader((h) => (h.kdf.iterations = 3)),
        PASSWORD,
      ),
    ).rejects.toBeInstanceOf(ImportPasswordError);
    await expect(
      openBackupFile(
        withHeader((h) => (h.version = 3)),
        PASSWORD,
      ),
    ).rejects.toThrow(/format version 3, newer/);
    await expect(
      openBackupFile(
        withHeader((h) => (h.kdf.memoryKiB = 1024)),
        PASSWORD,
      ),
    ).rejects.toThrow(/weaker than Lockit/);
  });

  it('still opens version 1 files, and keeps files out of them', async () => {
    const v1 = await sealBackup(sampleVault(), PASSWORD, { kdf: TEST_KDF });
    const opened = await openBackupFile(new TextEncoder().encode(v1), PASSWORD);
    expect(opened.contents).toEqual(sampleVault());
    expect(opened.files.size).toBe(0);
    const { contents } = vaultWithFiles();
    await expect(sealBackup({ ...contents, version: 1 } as BackupContents, PASSWORD, { kdf: TEST_KDF })).rejects.toThrow(
      /version 1 contents cannot list files/,
    );
    await expect(openBackup(v1.replace('"version": 1', '"version": 1'), PASSWORD)).resolves.toBeDefined();
  });

  it('refuses to seal a file that gives other than its listed size', async () => {
    const { contents } = vaultWithFiles();
    const seal = await backupSealer(PASSWORD, { kdf: TEST_KDF });
    const run = async () => {
      for await (const _ of seal.withFiles(contents, () => inPieces(new Uint8Array(3)))) void _;
    };
    await expect(run()).rejects.toThrow(/fewer bytes than its size|more bytes than its size/);
  });

  it('streams a 100 MB file through sealing and opening without holding it whole', async () => {
    const size = 100 * 1024 * 1024;
    const piece = bytesOf(1024 * 1024, 9);
    async function* source() {
      for (let at = 0; at < size; at += piece.length) yield piece;
    }
    const expected = createHash('sha256');
    for (let at = 0; at < size; at += piece.length) expected.update(piece);
    const vault = sampleVault();
    const contents: BackupContents = {
      ...vault,
      version: 2,
      items: [{ ...vault.items[0]!, files: [fileOf('big.bin', size)] }, ...vault.items.slice(1)],
    };
    const seal = await backupSealer(PASSWORD, { kdf: TEST_KDF });
    const opened = await openBackupStream(seal.withFiles(contents, source), PASSWORD);
    const hash = createHash('sha256');
    let largest = 0;
    for await (const { content } of opened.files()) {
      for await (const chunk of content) {
        largest = Math.max(largest, chunk.length);
        hash.update(chunk);
      }
    }
    expect(hash.digest('hex')).toBe(expected.digest('hex'));
    expect(largest).toBe(FRAME);
  });
});
