import type { EntryWire } from '@lockit/contract';
import {
  encryptField,
  generateVaultKeyBytes,
  importVaultKey,
  newEntryId,
  sealEntryFields,
  type EntryTexts,
} from '@lockit/crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { documentsOf, sealedEntry, type PlainEntry } from '@/testing/vault-fixtures';
import { DECRYPT_BATCH_SIZE, openEntries, openEntry } from '@lockit/client-core';
import { RevisionMemory } from '@lockit/client-core';
// The yield between slices, watched: yieldToMain takes the platform's scheduler.yield() where
// there is one, so a stand-in for it sees each slice end.
const yieldToMain = vi.fn(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
beforeEach(() => vi.stubGlobal('scheduler', { yield: yieldToMain }));
afterEach(() => vi.unstubAllGlobals());

const newKey = () => importVaultKey(generateVaultKeyBytes());

/** An entry whose fields are all sealed correctly, with whatever texts the test gives. */
async function sealedTexts(key: CryptoKey, texts: EntryTexts, id = newEntryId()): Promise<EntryWire> {
  const sealed = await sealEntryFields(key, id, texts);
  const now = '2025-02-01T00:00:00.000Z';
  return {
    id,
    serviceName: sealed.serviceName!,
    username: sealed.username!,
    password: sealed.password!,
    url: sealed.url,
    notes: sealed.notes,
    overview: sealed.overview,
    details: sealed.details,
    revision: 1,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
}

const overviewText = (plain: Partial<PlainEntry> = {}) =>
  JSON.stringify(documentsOf({ serviceName: 'S', username: 'u', password: 'p', ...plain }).overview);

describe('openEntries', () => {
  it('decrypts the list fields of every entry, in order, yielding to the event loop between slices', async () => {
    const key = await newKey();
    const wires = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        sealedEntry(key, {
          serviceName: `S${i}`,
          username: `u${i}`,
          password: 'p',
          url: i === 0 ? 'https://x.example' : undefined,
        }),
      ),
    );
    yieldToMain.mockClear();
    const entries = await openEntries(key, wires, { batchSize: 3 });

    expect(entries.map((entry) => (entry.status === 'open' ? entry.serviceName : 'damaged'))).toEqual([
      'S0',
      'S1',
      'S2',
      'S3',
      'S4',
      'S5',
      'S6',
    ]);
    expect(entries[0]).toMatchObject({
      username: 'u0',
      url: 'https://x.example',
      searchText: 's0\nu0\nhttps://x.example',
      // nameSortKey('S0'): the digit run as its length, then its digits.
      sortKey: 's10',
    });
    expect(entries[1]).toMatchObject({ url: null, sealed: { password: wires[1]!.password, notes: null, details: null } });
    expect(yieldToMain).toHaveBeenCalledTimes(2);
  });

  it('slices 500 entries at a time by default', async () => {
    const key = await newKey();
    const one = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'p' });
    const wires = Array.from({ length: DECRYPT_BATCH_SIZE + 1 }, () => one);
    yieldToMain.mockClear();
    expect(await openEntries(key, wires)).toHaveLength(DECRYPT_BATCH_SIZE + 1);
    expect(DECRYPT_BATCH_SIZE).toBe(500);
    expect(yieldToMain).toHaveBeenCalledTimes(1);
  });

  it('stops between slices once aborted', async () => {
    const key = await newKey();
    const wires = await Promise.all(
      [1, 2, 3].map((i) => sealedEntry(key, { serviceName: `S${i}`, username: 'u', password: 'p' })),
    );
    const controller = new AbortController();
    yieldToMain.mockImplementationOnce(async () => controller.abort());
    await expect(openEntries(key, wires, { batchSize: 1, signal: controller.signal })).rejects.toThrow();
  });

  it('leaves out entries without an id, which could not even be deleted', async () => {
    const key = await newKey();
    expect(await openEntries(key, [null, 'text', { serviceName: 'x' }])).toEqual([]);
  });

  it('puts the folder name in the search text of the entries in that folder', async () => {
    const key = await newKey();
    const folderId = newEntryId();
    const wire = await sealedEntry(key, { serviceName: 'Bank', username: 'me', password: 'p', folderId });
    const [entry] = await openEntries(key, [wire], { folderNames: new Map([[folderId, 'Finanzen/Épargne']]) });
    expect(entry).toMatchObject({ folderId, searchText: 'bank\nme\nfinanzen/epargne' });
  });
});

describe('openEntry: the item format', () => {
  it('opens the overview: type, every address, tags, folder, favourite, custom fields, TOTP flag, card and identity', async () => {
    const key = await newKey();
    const folderId = newEntryId();
    const wire = await sealedEntry(key, {
      serviceName: 'Crédit Mutuel',
      username: 'Zoë',
      password: 'p',
      urls: ['https://bank.example', 'https://app.bank.example'],
      tags: ['Finance', 'Été'],
      folderId,
      favorite: true,
      fields: [
        { id: 'f1', label: 'PIN', kind: 'hidden' },
        { id: 'f2', label: 'Branch', kind: 'text', value: 'Lyon' },
      ],
      hidden: { f1: '1234' },
      totp: 'JBSWY3DPEHPK3PXP',
    });
    const entry = await openEntry(key, wire);
    expect(entry).toMatchObject({
      status: 'open',
      format: 'item',
      type: 'login',
      serviceName: 'Crédit Mutuel',
      name: 'Crédit Mutuel',
      url: 'https://bank.example',
      urls: ['https://bank.example', 'https://app.bank.example'],
      tags: ['Finance', 'Été'],
      folderId,
      favorite: true,
      hasTotp: true,
      fields: [
        { id: 'f1', label: 'PIN', kind: 'hidden' },
        { id: 'f2', label: 'Branch', kind: 'text', value: 'Lyon' },
      ],
      card: null,
      identity: null,
      deletedAt: null,
      sealed: {
        password: wire.password,
        details: wire.details,
        fieldSet: ['serviceName', 'username', 'password', 'url', 'overview', 'details'],
      },
      // Folded: accents and case do not matter to search.
      searchText: 'credit mutuel\nzoe\nhttps://bank.example\nhttps://app.bank.example\nfinance\nete',
      sortKey: 'credit mutuel',
    });
    // The hidden value and the seed stay sealed: nothing of details is opened with the list.
    expect(JSON.stringify(entry)).not.toMatch(/1234|JBSWY3DPEHPK3PXP/);
  });

  it('opens a card with its last four digits only, and an identity without its numbers', async () => {
    const key = await newKey();
    const card = await openEntry(
      key,
      await sealedEntry(key, {
        serviceName: 'Visa',
        username: '',
        password: '',
        type: 'card',
        card: { holder: 'A B', brand: 'Visa', last4: '4242', expMonth: '12', expYear: '2030' },
        cardSecret: { number: '4242424242424242', code: '123' },
      }),
    );
    expect(card).toMatchObject({ type: 'card', card: { last4: '4242', expMonth: '12' } });
    expect(JSON.stringify(card)).not.toMatch(/4242424242424242/);
  });

  it('keeps a trashed entry with when it went to Trash', async () => {
    const key = await newKey();
    const wire = await sealedEntry(
      key,
      { serviceName: 'Old', username: 'u', password: 'p' },
      { deletedAt: '2025-03-01T00:00:00.000Z' },
    );
    expect(await openEntry(key, wire)).toMatchObject({ status: 'open', deletedAt: '2025-03-01T00:00:00.000Z' });
  });

  it('opens an entry saved before items as a legacy login', async () => {
    const key = await newKey();
    const wire = await sealedEntry(
      key,
      { serviceName: 'Mail', username: 'a', password: 'p', url: 'https://mail.example' },
      { format: 'legacy' },
    );
    expect(await openEntry(key, wire)).toMatchObject({
      status: 'open',
      format: 'legacy',
      type: 'login',
      url: 'https://mail.example',
      urls: ['https://mail.example'],
      tags: [],
      folderId: null,
      favorite: false,
      fields: [],
      sealed: { fieldSet: undefined, details: null },
    });
  });
});

describe('openEntry: a server that changes an entry makes it damaged, never partial', () => {
  const damaged = { status: 'damaged', reason: 'undecryptable' };

  it('a dropped field', async () => {
    const key = await newKey();
    const wire = await sealedEntry(key, {
      serviceName: 'S',
      username: 'u',
      password: 'p',
      notes: 'secret note',
      url: 'https://x.example',
    });
    expect(await openEntry(key, { ...wire, notes: null })).toMatchObject(damaged);
    expect(await openEntry(key, { ...wire, url: null })).toMatchObject(damaged);
  });

  it('an added field, even one sealed for this entry and field', async () => {
    const key = await newKey();
    const wire = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'p' });
    const notes = await encryptField(key, wire.id, 'notes', 'planted', [
      'serviceName',
      'username',
      'password',
      'notes',
      'overview',
    ]);
    expect(await openEntry(key, { ...wire, notes })).toMatchObject(damaged);
  });

  it('swapped documents', async () => {
    const key = await newKey();
    const wire = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'p', totp: 'JBSWY3DPEHPK3PXP' });
    expect(await openEntry(key, { ...wire, overview: wire.details, details: wire.overview })).toMatchObject(damaged);
  });

  it('an overview taken from another entry', async () => {
    const key = await newKey();
    const [a, b] = await Promise.all([
      sealedEntry(key, { serviceName: 'A', username: 'u', password: 'p' }),
      sealedEntry(key, { serviceName: 'B', username: 'u', password: 'p', favorite: true }),
    ]);
    expect(await openEntry(key, { ...a, overview: b.overview })).toMatchObject(damaged);
  });

  it('an overview stripped to pass the entry off as a legacy one', async () => {
    const key = await newKey();
    const wire = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'p' });
    expect(await openEntry(key, { ...wire, overview: null })).toMatchObject(damaged);
  });

  it('an overview that is not JSON, or has an unknown key, or a wrong type', async () => {
    const key = await newKey();
    const base = { serviceName: 'S', username: 'u', password: 'p' };
    const withOverview = (overview: string) => sealedTexts(key, { ...base, overview });
    expect(await openEntry(key, await withOverview('{not json'))).toMatchObject(damaged);
    expect(await openEntry(key, await withOverview(JSON.stringify({ ...JSON.parse(overviewText()), extra: 1 })))).toMatchObject(
      damaged,
    );
    expect(
      await openEntry(key, await withOverview(JSON.stringify({ ...JSON.parse(overviewText()), favorite: 'yes' }))),
    ).toMatchObject(damaged);
    expect(await openEntry(key, await withOverview(overviewText()))).toMatchObject({ status: 'open' });
  });

  it('details planted on a legacy entry', async () => {
    const key = await newKey();
    const wire = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'p' }, { format: 'legacy' });
    expect(await openEntry(key, { ...wire, details: wire.password })).toMatchObject(damaged);
  });

  it('keeps the revision and Trash state of a damaged entry, so it can still be moved or purged', async () => {
    const key = await newKey();
    const wire = await sealedEntry(
      key,
      { serviceName: 'S', username: 'u', password: 'p' },
      { revision: 4, deletedAt: '2025-03-01T00:00:00.000Z' },
    );
    expect(await openEntry(key, { ...wire, serviceName: 'plain' })).toEqual({
      status: 'damaged',
      reason: 'undecryptable',
      id: wire.id,
      createdAt: wire.createdAt,
      revision: 4,
      deletedAt: '2025-03-01T00:00:00.000Z',
      sortKey: '',
      searchText: '',
    });
  });
});

describe('openEntry', () => {
  it('turns a schema mismatch into a damaged entry that keeps its id', async () => {
    const key = await newKey();
    const wire = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'p' });
    expect(await openEntry(key, { ...wire, password: 42 })).toEqual({
      status: 'damaged',
      reason: 'undecryptable',
      id: wire.id,
      createdAt: wire.createdAt,
      revision: 1,
      deletedAt: null,
      sortKey: '',
      searchText: '',
    });
  });

  it('refuses an entry at a lower revision than this tab saw, as rolled back, without decrypting it', async () => {
    const key = await newKey();
    const revisions = new RevisionMemory();
    const current = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'new' }, { revision: 3 });
    const older = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'old' }, { id: current.id, revision: 2 });

    expect(await openEntry(key, current, revisions)).toMatchObject({ status: 'open', revision: 3 });
    expect(await openEntry(key, older, revisions)).toEqual({
      status: 'damaged',
      reason: 'rolled-back',
      id: current.id,
      createdAt: older.createdAt,
      revision: 2,
      deletedAt: null,
      sortKey: '',
      searchText: '',
    });
    expect(await openEntries(key, [older], { revisions })).toMatchObject([{ status: 'damaged', reason: 'rolled-back' }]);
    // The same revision again, or a newer one, is no rollback.
    expect(await openEntry(key, current, { revisions })).toMatchObject({ status: 'open' });
  });

  it('notes the revision only of entries that open, so a server cannot poison the memory with garbage', async () => {
    const key = await newKey();
    const revisions = new RevisionMemory();
    const real = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'p' }, { revision: 2 });
    expect(await openEntry(key, { ...real, serviceName: 'plain', revision: 99 }, revisions)).toMatchObject({
      status: 'damaged',
      reason: 'undecryptable',
    });
    expect(await openEntry(key, real, revisions)).toMatchObject({ status: 'open', revision: 2 });
  });
});
