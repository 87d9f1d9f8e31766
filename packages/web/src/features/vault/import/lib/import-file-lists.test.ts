import { emptyDraft, type OpenEntry } from '@lockit/client-core';
import { describe, expect, it } from 'vitest';
import { filesToSend, updateDraftWithFiles, withoutFiles } from './import-file-lists';

const bytes = (length: number) => new Uint8Array(length);
const LISTED = { id: '0d3c9a3e-8f9b-4e1c-9a4e-1b2c3d4e5f60', name: 'scan.pdf', size: 10 };

describe('the files an import sends and lists', () => {
  it('gives each file an id to list, skips one the item lists already, and lists none a file cannot be named', () => {
    const sent = filesToSend(
      [
        { name: 'scan.pdf', bytes: bytes(10) },
        { name: 'new.txt', bytes: bytes(3) },
        { name: 'tax/2026.pdf', bytes: bytes(4) },
      ],
      [LISTED],
    );
    expect(sent.files.map((file) => file.name)).toEqual(['new.txt', 'tax/2026.pdf']);
    expect(sent.ids[1]).toBeUndefined();
    expect(sent.refs).toEqual([{ id: sent.ids[0], name: 'new.txt', size: 3 }]);
  });

  it('lists no more files than an item can hold', () => {
    const many = Array.from({ length: 105 }, (_, i) => ({ name: `${i}.txt`, bytes: bytes(1) }));
    expect(filesToSend(many, []).refs).toHaveLength(100);
  });

  it("keeps an existing item's lists and adds the new files; an item that never listed its files keeps not listing them", () => {
    const draft = { ...emptyDraft('note'), serviceName: 'Passport' };
    const sent = filesToSend([{ name: 'new.txt', bytes: bytes(3) }], [LISTED]);
    const listed = { files: [LISTED], deletedFiles: ['1e4d0b4f-9a0c-4f2d-8b5f-2c3d4e5f6071'] } as unknown as OpenEntry;
    expect(updateDraftWithFiles(draft, listed, sent)).toMatchObject({
      files: [LISTED, ...sent.refs],
      deletedFiles: listed.deletedFiles,
    });
    const neverListed = updateDraftWithFiles(draft, {} as OpenEntry, sent);
    expect('files' in neverListed || 'deletedFiles' in neverListed).toBe(false);
  });

  it('takes the files that did not go up off the list', () => {
    const draft = { ...emptyDraft('note'), files: [LISTED, { ...LISTED, id: '2f5e1c5a-0b1d-4a3e-9c6a-3d4e5f607182' }] };
    expect(withoutFiles(draft, new Set([LISTED.id])).files!.map((file) => file.id)).toEqual([
      '2f5e1c5a-0b1d-4a3e-9c6a-3d4e5f607182',
    ]);
  });
});
