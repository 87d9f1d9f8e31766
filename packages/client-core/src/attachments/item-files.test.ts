import { describe, expect, it } from 'vitest';
import { itemFilesOf, MISSING_FILE_PROBLEM, OTHER_SIZE_PROBLEM, refsOfServed } from './item-files';
import type { ListedAttachment, OpenedAttachment } from './opened-attachment';

const ITEM = '5b0e6a8e-3d0c-4a57-9d7a-0c9e7f1b2a10';
const A = '0d3c9a3e-8f9b-4e1c-9a4e-1b2c3d4e5f60';
const B = '1e4d0b4f-9a0c-4f2d-8b5f-2c3d4e5f6071';
const C = '2f5e1c5a-0b1d-4a3e-9c6a-3d4e5f607182';

const served = (fileId: string, name: string, size: number): OpenedAttachment => ({
  kind: 'file',
  ids: { itemId: ITEM, fileId },
  name,
  size,
  type: 'application/pdf',
  createdAt: 1,
  updatedAt: 1,
  key: {} as CryptoKey,
});

describe('itemFilesOf', () => {
  it('shows what was served, unchecked, for an item that never listed its files', () => {
    const list = [served(A, 'a.pdf', 10), served(B, 'b.pdf', 20)];
    expect(itemFilesOf(undefined, list)).toEqual({ files: list, kept: [], unlisted: [], listed: false });
  });

  it('shows the listed files in the order the item lists them, under the names it lists', () => {
    const result = itemFilesOf(
      [
        { id: B, name: 'scan.pdf', size: 20 },
        { id: A, name: 'a.pdf', size: 10 },
      ],
      [served(A, 'a.pdf', 10), served(B, 'old name.pdf', 20)],
    );
    expect(result.listed).toBe(true);
    expect(result.files.map((file) => file.kind === 'file' && [file.ids.fileId, file.name])).toEqual([
      [B, 'scan.pdf'],
      [A, 'a.pdf'],
    ]);
    expect(result.unlisted).toEqual([]);
  });

  it('names a listed file the server withheld as missing, with the name and size the item lists', () => {
    const result = itemFilesOf([{ id: A, name: 'passport.jpg', size: 3_000_000 }], []);
    expect(result.files).toEqual([
      { kind: 'missing', id: A, name: 'passport.jpg', size: 3_000_000, problem: MISSING_FILE_PROBLEM },
    ]);
  });

  it('keeps a served file the item does not list apart from its files (a deleted file brought back)', () => {
    const back = served(C, 'deleted.txt', 5);
    const result = itemFilesOf([{ id: A, name: 'a.pdf', size: 10 }], [served(A, 'a.pdf', 10), back]);
    expect(result.files).toHaveLength(1);
    expect(result.unlisted).toEqual([back]);
  });

  it('keeps a served file that an earlier version lists apart as kept for that version, not as a stranger', () => {
    const removed = served(B, 'old.pdf', 20);
    const stranger = served(C, 'stranger.txt', 5);
    const result = itemFilesOf(
      [{ id: A, name: 'a.pdf', size: 10 }],
      [served(A, 'a.pdf', 10), removed, stranger],
      new Set([B.toUpperCase()]),
    );
    expect(result.kept).toEqual([removed]);
    expect(result.unlisted).toEqual([stranger]);
  });

  it('keeps a file deleted for good apart as unlisted even though an earlier version lists it', () => {
    const back = served(B, 'old.pdf', 20);
    const result = itemFilesOf([], [back], new Set([B]), [B.toUpperCase()]);
    expect(result.kept).toEqual([]);
    expect(result.unlisted).toEqual([back]);
  });

  it('calls a served file of another size than the listed one damaged', () => {
    const result = itemFilesOf([{ id: A, name: 'a.pdf', size: 10 }], [served(A, 'a.pdf', 11)]);
    expect(result.files).toEqual([{ kind: 'damaged', id: A, problem: OTHER_SIZE_PROBLEM }]);
  });

  it('keeps a damaged served file damaged, matched by id whatever its case', () => {
    const damaged: ListedAttachment = { kind: 'damaged', id: A.toUpperCase(), problem: 'changed' };
    expect(itemFilesOf([{ id: A, name: 'a.pdf', size: 10 }], [damaged]).files).toEqual([damaged]);
  });
});

describe('refsOfServed', () => {
  it('lists every served file that opened, and no damaged one', () => {
    const damaged: ListedAttachment = { kind: 'damaged', id: B, problem: 'changed' };
    expect(refsOfServed([served(A, 'a.pdf', 10), damaged])).toEqual([{ id: A, name: 'a.pdf', size: 10 }]);
  });
});
