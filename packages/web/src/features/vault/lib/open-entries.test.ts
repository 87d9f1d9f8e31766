import { generateVaultKeyBytes, importVaultKey } from '@lockit/crypto';
import { describe, expect, it, vi } from 'vitest';
import { sealedEntry } from '@/testing/vault-fixtures';
import { DECRYPT_BATCH_SIZE, openEntries, openEntry } from './open-entries';
import { RevisionMemory } from './revision-memory';
import { yieldToMain } from './yield-to-main';

// The real yield, watched, to see the slices.
vi.mock('./yield-to-main', async (importOriginal) => {
  const real = await importOriginal<typeof import('./yield-to-main')>();
  return { yieldToMain: vi.fn(real.yieldToMain) };
});

const newKey = () => importVaultKey(generateVaultKeyBytes());

describe('openEntries', () => {
  it('decrypts the list fields of every entry, in order, yielding to the event loop between slices', async () => {
    const key = await newKey();
    const wires = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        sealedEntry(key, { serviceName: `S${i}`, username: `u${i}`, password: 'p', url: i === 0 ? 'https://x.example' : undefined }),
      ),
    );
    vi.mocked(yieldToMain).mockClear();
    const items = await openEntries(key, wires, { batchSize: 3 });

    expect(items.map((item) => (item.status === 'open' ? item.serviceName : 'damaged'))).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
    expect(items[0]).toMatchObject({ username: 'u0', url: 'https://x.example', searchText: 's0\nu0\nhttps://x.example', sortKey: 's0' });
    expect(items[1]).toMatchObject({ url: null, sealed: { password: wires[1]!.password, notes: null } });
    expect(yieldToMain).toHaveBeenCalledTimes(2);
  });

  it('slices 500 entries at a time by default', async () => {
    const key = await newKey();
    const one = await sealedEntry(key, { serviceName: 'S', username: 'u', password: 'p' });
    const wires = Array.from({ length: DECRYPT_BATCH_SIZE + 1 }, () => one);
    vi.mocked(yieldToMain).mockClear();
    expect(await openEntries(key, wires)).toHaveLength(DECRYPT_BATCH_SIZE + 1);
    expect(DECRYPT_BATCH_SIZE).toBe(500);
    expect(yieldToMain).toHaveBeenCalledTimes(1);
  });

  it('stops between slices once aborted', async () => {
    const key = await newKey();
    const wires = await Promise.all([1, 2, 3].map((i) => sealedEntry(key, { serviceName: `S${i}`, username: 'u', password: 'p' })));
    const controller = new AbortController();
    vi.mocked(yieldToMain).mockImplementationOnce(async () => controller.abort());
    await expect(openEntries(key, wires, { batchSize: 1, signal: controller.signal })).rejects.toThrow();
  });

  it('leaves out entries without an id, which could not even be deleted', async () => {
    const key = await newKey();
    expect(await openEntries(key, [null, 'text', { serviceName: 'x' }])).toEqual([]);
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
      sortKey: '',
      searchText: '',
    });
    expect(await openEntries(key, [older], { revisions })).toMatchObject([{ status: 'damaged', reason: 'rolled-back' }]);
    // The same revision again, or a newer one, is no rollback.
    expect(await openEntry(key, current, revisions)).toMatchObject({ status: 'open' });
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
