import type { AttachmentPlatform, OpenedAttachment } from '@lockit/client-core';
import { newAttachmentKey, sealAttachmentStream } from '@lockit/crypto';
import { backupSealer, openBackupFile, type BackupContents } from '@lockit/transfer';
import { describe, expect, it } from 'vitest';
import { readBlob } from '../attachments/attachment-platform';
import { sealBackupWithFiles, withFiles } from './backup-files';

const PASSWORD = 'a long backup password';
const KDF = { algorithm: 'argon2id', memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 } as const;
const ENTRY = '0b5f4d3c-2a19-4e8f-9d7c-6b5a4f3e2d1c';

const item = (name: string): BackupContents['items'][number] => ({
  type: 'note',
  name,
  username: '',
  password: '',
  urls: [],
  notes: '',
  totp: '',
  fields: [],
  card: null,
  identity: null,
  tags: [],
  folder: null,
  favorite: false,
  createdAt: null,
  updatedAt: null,
  trashedAt: null,
  history: [],
});
const contents: BackupContents = {
  app: 'lockit',
  version: 1,
  exportedAt: '2026-11-28T10:00:00.000Z',
  includesTrash: false,
  folders: [],
  items: [item('No files'), item('Scans')],
};

/** A file as the server would hold it: sealed under its own key for ENTRY, served as one body. */
async function storedFile(bytes: Uint8Array, name: string) {
  const vaultKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const ids = { itemId: ENTRY, fileId: crypto.randomUUID() };
  const { key } = await newAttachmentKey(vaultKey, ids);
  const sealed: Uint8Array[] = [];
  async function* source() {
    yield bytes;
  }
  for await (const chunk of sealAttachmentStream(key, ids, source(), bytes.length)) sealed.push(chunk);
  const file: OpenedAttachment = {
    kind: 'file',
    ids,
    name,
    size: bytes.length,
    type: 'application/pdf',
    createdAt: 1,
    updatedAt: 1,
    key,
  };
  return { file, sealed };
}

describe('the encrypted backup with files', () => {
  it('lists no file and stays version 1 when no exported item has one', () => {
    const planned = withFiles(contents, ['a', 'b'], { byEntry: new Map(), damaged: 0 });
    expect(planned).toEqual({ contents, attached: null, missing: 0 });
  });

  it('carries the files an item lists, under the names it lists, and counts a listed file the server did not serve', async () => {
    const { file } = await storedFile(new Uint8Array(10), 'served name.pdf');
    const { file: stranger } = await storedFile(new Uint8Array(5), 'not listed.txt');
    const refs = [
      { id: file.ids.fileId, name: 'listed name.pdf', size: 10 },
      { id: '2f5e1c5a-0b1d-4a3e-9c6a-3d4e5f607182', name: 'withheld.pdf', size: 99 },
    ];
    const byEntry = new Map([[ENTRY, [file, stranger]]]);
    const planned = withFiles(contents, ['other', ENTRY], { byEntry, damaged: 0 }, [undefined, refs]);
    expect(planned.contents.items[1]!.files!.map((listedFile) => listedFile.name)).toEqual(['listed name.pdf']);
    expect(planned.attached![1]!.map((opened) => opened.ids.fileId)).toEqual([file.ids.fileId]);
    expect(planned.missing).toBe(1);
  });

  it('streams each file from the server, checked, into a version 2 file that opens to the same bytes', async () => {
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 13) & 0xff);
    const { file, sealed } = await storedFile(bytes, 'scan.pdf');
    const planned = withFiles(contents, ['other', ENTRY.toUpperCase()], { byEntry: new Map([[ENTRY, [file]]]), damaged: 0 });
    expect(planned.contents.version).toBe(2);
    expect(planned.contents.items[1]!.files).toEqual([
      { name: 'scan.pdf', size: 200_000, type: 'application/pdf', createdAt: '1970-01-01T00:00:00.001Z' },
    ]);
    const urls: string[] = [];
    const platform = {
      api: undefined as never,
      baseUrl: '',
      binary: async ({ url }: { url: string }) => {
        urls.push(url);
        return {
          status: 200,
          headers: new Headers(),
          body: (async function* () {
            yield* sealed;
          })(),
          text: async () => '',
        };
      },
    } as AttachmentPlatform;
    const progress: string[] = [];
    const sealer = await backupSealer(PASSWORD, { kdf: KDF });
    const blob = await sealBackupWithFiles(sealer, planned.contents, planned.attached!, platform, (done, total) =>
      progress.push(`${done}/${total}`),
    );
    expect(urls).toEqual([`/api/attachments/${ENTRY}/${file.ids.fileId}/content`]);
    expect(progress).toEqual(['0/1', '1/1']);
    const opened = await openBackupFile(new Uint8Array(await readBlob(blob)), PASSWORD);
    expect(opened.contents).toEqual(planned.contents);
    expect(Buffer.from(opened.files.get(1)![0]!.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('fails the whole backup when a file does not pass its check on the way', async () => {
    const { file, sealed } = await storedFile(new Uint8Array(100), 'scan.pdf');
    sealed[0]![30]! ^= 1;
    const planned = withFiles(contents, ['other', ENTRY], { byEntry: new Map([[ENTRY, [file]]]), damaged: 0 });
    const platform = {
      api: undefined as never,
      baseUrl: '',
      binary: async () => ({
        status: 200,
        headers: new Headers(),
        body: (async function* () {
          yield* sealed;
        })(),
        text: async () => '',
      }),
    } as AttachmentPlatform;
    const sealer = await backupSealer(PASSWORD, { kdf: KDF });
    await expect(sealBackupWithFiles(sealer, planned.contents, planned.attached!, platform)).rejects.toThrow(/failed its check/);
  });
});
