import { overviewDocumentSchema, type FileRef } from '@lockit/contract';
import { generateVaultKeyBytes, importVaultKey, newEntryId } from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { mergeDrafts } from './draft-diff';
import { emptyDraft } from './entry-drafts';
import { checkEntryPlaintext, entryPlaintext } from './entry-plaintext';
import { draftOf, openDraft } from './open-draft';
import { openEntry } from './open-entries';
import { sealEntry, toAddRequest } from './seal-entry';
import type { EntryDraft, EntrySecrets, OpenEntry } from './vault-entry';

const SCAN: FileRef = { id: '0d3c9a3e-8f9b-4e1c-9a4e-1b2c3d4e5f60', name: 'passport scan.pdf', size: 3_145_728 };
const CODES: FileRef = { id: '1e4d0b4f-9a0c-4f2d-8b5f-2c3d4e5f6071', name: 'recovery codes.txt', size: 180 };
const note: EntryDraft = { ...emptyDraft('note'), serviceName: 'Passport', files: [SCAN] };
const NO_SECRETS: EntrySecrets = { password: '', notes: '', totp: null, hidden: {}, card: null, identity: null, sshKey: null };

describe("an item's file list (sealed in its overview)", () => {
  it('is saved as the draft lists it, an empty list included, and left out for an item that never listed one', () => {
    expect(entryPlaintext(note).overview.files).toEqual([SCAN]);
    expect(entryPlaintext({ ...note, files: [] }).overview.files).toEqual([]);
    const { files: _none, ...unlisted } = note;
    expect('files' in entryPlaintext(unlisted).overview).toBe(false);
  });

  it('is refused by the overview schema when it names a file twice, a bad name or too many files', () => {
    const { overview } = entryPlaintext(note);
    const bad = (files: unknown) => overviewDocumentSchema.safeParse({ ...overview, files }).success;
    expect(bad([SCAN])).toBe(true);
    expect(bad([SCAN, { ...SCAN, name: 'again.pdf' }])).toBe(false);
    expect(bad([{ ...SCAN, name: 'tax/2026.pdf' }])).toBe(false);
    expect(bad([{ ...SCAN, name: '' }])).toBe(false);
    expect(bad([{ ...SCAN, size: -1 }])).toBe(false);
    expect(bad([{ ...SCAN, id: 'not-a-uuid' }])).toBe(false);
    expect(bad(Array.from({ length: 101 }, () => ({ ...SCAN, id: newEntryId() })))).toBe(false);
  });

  it('is refused before sealing past 100 files, with the limit in words, and keeps only the newest 100 deleted ids', () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ ...SCAN, id: newEntryId(), name: `${i}.pdf` }));
    expect(() => checkEntryPlaintext(entryPlaintext({ ...note, files: many }))).toThrow('An item can have at most 100 files.');
    const deleted = Array.from({ length: 150 }, () => newEntryId());
    expect(entryPlaintext({ ...note, deletedFiles: deleted }).overview.deletedFiles).toEqual(deleted.slice(-100));
  });

  it('comes back with the item after sealing and opening, and in the draft an edit starts from', async () => {
    const vaultKey = await importVaultKey(generateVaultKeyBytes());
    const id = newEntryId();
    const sealed = await sealEntry(vaultKey, id, { ...note, files: [SCAN, CODES] });
    const at = '2026-11-29T08:00:00.000Z';
    const wire = {
      url: null,
      notes: null,
      details: null,
      ...toAddRequest(sealed),
      revision: 1,
      createdAt: at,
      updatedAt: at,
      deletedAt: null,
    };
    const opened = (await openEntry(vaultKey, wire)) as OpenEntry;
    expect(opened.status).toBe('open');
    expect(opened.files).toEqual([SCAN, CODES]);
    expect((await openDraft(vaultKey, opened)).files).toEqual([SCAN, CODES]);
  });

  it('is copied into a draft, so changing the draft leaves the shown item alone', () => {
    const entry = {
      ...entryPlaintext(note).overview,
      serviceName: 'Passport',
      username: '',
      files: [SCAN],
    } as unknown as OpenEntry;
    const draft = draftOf(entry, NO_SECRETS);
    draft.files![0]!.name = 'changed.pdf';
    expect(entry.files![0]!.name).toBe('passport scan.pdf');
  });

  it('is always theirs in a merged conflict: the form never changes files, so theirs holds every file attached', () => {
    const mine: EntryDraft = { ...note, notes: 'mine', files: [SCAN] };
    const theirs: EntryDraft = { ...note, notes: 'theirs', files: [SCAN, CODES] };
    expect(mergeDrafts(mine, theirs, {}).files).toEqual([SCAN, CODES]);
    expect(mergeDrafts(mine, theirs, { notes: 'theirs' }).files).toEqual([SCAN, CODES]);
    const { files: _none, ...neverListed } = theirs;
    expect('files' in mergeDrafts(mine, neverListed, {})).toBe(false);
  });
});
