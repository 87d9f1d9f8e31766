import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiPaths, ENTRY_BATCH_MAX_ENTRIES, entryBatchResponseSchema, undoEntryBatchResponseSchema } from '@lockit/contract';
import { signedInUser, type TestAccount } from './helpers/accounts';
import { snapshotDatabase } from './helpers/db-snapshot';
import { encryptEntry, encryptItem } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

async function sealedEntries(account: TestAccount, count: number, prefix = 'site') {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      encryptItem(account, {
        serviceName: `${prefix} ${i}`,
        username: `user${i}`,
        password: `pw ${i}, "quoted"`,
        notes: 'line one\nline two',
        overview: { v: 1, type: 'login', tags: ['Imported from Bitwarden 2025-01-01'] },
        details: { v: 1, totp: 'JBSWY3DPEHPK3PXP' },
      }),
    ),
  );
}

type Sealed = Awaited<ReturnType<typeof sealedEntries>>[number];

const list = async (client: Awaited<ReturnType<typeof signedInUser>>['client']) =>
  (await client.get(apiPaths.listEntries)).json().data as Array<{ id: string; revision: number; deletedAt: string | null }>;

describe('POST /api/entries/batch', () => {
  it('stores a whole call in one go, each entry as the single add would, and answers how many', async () => {
    const { account, client } = await signedInUser(h);
    const entries = await sealedEntries(account, 3);
    const batchId = randomUUID();
    const response = await client.post(apiPaths.entryBatch, { batchId, entries });
    expect(response.statusCode).toBe(201);
    expect(entryBatchResponseSchema.parse(response.json())).toEqual({ message: 'Entries imported', data: { batchId, added: 3 } });
    const stored = await list(client);
    expect(stored.map((entry) => entry.id).sort()).toEqual(entries.map((entry) => entry.id).sort());
    for (const entry of entries) {
      expect(stored.find((row) => row.id === entry.id)).toMatchObject({ ...entry, revision: 1, deletedAt: null });
    }
  });

  it('takes the most entries a call may hold, and refuses one more with a readable 400 and no write', async () => {
    const { account, client } = await signedInUser(h);
    const one = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' });
    const full = Array.from({ length: ENTRY_BATCH_MAX_ENTRIES }, () => ({ ...one, id: randomUUID() }));
    // Ciphertexts bound to another id cannot be told apart by the server: the count is what is tested here.
    expect((await client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries: full })).statusCode).toBe(201);
    const before = await snapshotDatabase(h.db);
    const over = [...full.map((entry) => ({ ...entry, id: randomUUID() })), { ...one, id: randomUUID() }];
    const response = await client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries: over });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/entries.*at most 500/);
    expect(await snapshotDatabase(h.db)).toEqual(before);
  });

  it('refuses the whole call when one entry is bad (plaintext, a bad id, an empty list): 400 and nothing stored', async () => {
    const { account, client } = await signedInUser(h);
    const entries = await sealedEntries(account, 3);
    const before = await snapshotDatabase(h.db);
    for (const bad of [
      [...entries.slice(0, 2), { ...entries[2], password: 'plain text password' }],
      [...entries.slice(0, 2), { ...entries[2], id: 'not-a-uuid' }],
      [],
    ]) {
      const response = await client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries: bad });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(['message']);
    }
    expect((await client.post(apiPaths.entryBatch, { batchId: 'nope', entries })).statusCode).toBe(400);
    expect(await snapshotDatabase(h.db)).toEqual(before);
  });

  it('refuses the whole call when an id is taken or repeated: 409 and none of its entries stored', async () => {
    const { account, client } = await signedInUser(h);
    const [taken, ...rest] = await sealedEntries(account, 4);
    expect((await client.post(apiPaths.addEntry, taken)).statusCode).toBe(201);
    const before = await snapshotDatabase(h.db);
    for (const entries of [
      [...rest, taken],
      [...rest, rest[0]],
    ]) {
      const response = await client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: 'An entry of this batch has an id that is already taken; nothing was imported.',
      });
    }
    expect(await snapshotDatabase(h.db)).toEqual(before);
    expect(await list(client)).toHaveLength(1);
  });

  it('refuses a body past the batch cap with a readable 413', async () => {
    const { client } = await signedInUser(h);
    const response = await client.post(apiPaths.entryBatch, {
      batchId: randomUUID(),
      entries: [],
      pad: 'x'.repeat(9 * 1024 * 1024),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request body is too large (the limit is 8192 KiB).' });
  });

  it('answers 401 without a session, and stores nothing', async () => {
    const { account } = await signedInUser(h);
    const entries = await sealedEntries(account, 1);
    const before = await snapshotDatabase(h.db);
    const response = await h.client().post(apiPaths.entryBatch, { batchId: randomUUID(), entries });
    expect(response.statusCode).toBe(401);
    expect((await h.client().delete(apiPaths.entryBatchUndo(randomUUID()))).statusCode).toBe(401);
    expect(await snapshotDatabase(h.db)).toEqual(before);
  });
});

describe('DELETE /api/entries/batch/{batchId} (undo an import)', () => {
  it('deletes every entry of every call of the import for good, and nothing else', async () => {
    const { account, client } = await signedInUser(h);
    const own = await encryptEntry(account, { serviceName: 'typed by hand', username: 'me', password: 'p' });
    await client.post(apiPaths.addEntry, own);
    const batchId = randomUUID();
    const otherImport = randomUUID();
    await client.post(apiPaths.entryBatch, { batchId, entries: await sealedEntries(account, 3, 'first call') });
    await client.post(apiPaths.entryBatch, { batchId, entries: await sealedEntries(account, 2, 'second call') });
    const kept = await sealedEntries(account, 1, 'other import');
    await client.post(apiPaths.entryBatch, { batchId: otherImport, entries: kept });
    expect(await list(client)).toHaveLength(7);

    const response = await client.delete(apiPaths.entryBatchUndo(batchId));
    expect(response.statusCode).toBe(200);
    expect(undoEntryBatchResponseSchema.parse(response.json())).toEqual({
      message: 'Import undone',
      data: { purged: 5, trashed: 0 },
    });
    expect((await list(client)).map((entry) => entry.id).sort()).toEqual([own.id, kept[0]!.id].sort());
    expect((await client.delete(apiPaths.entryBatchUndo(batchId))).json()).toEqual({ message: 'No import with that id.' });
  });

  it('moves entries edited since the import to Trash, with the edit kept in history, instead of deleting them', async () => {
    const { account, client } = await signedInUser(h);
    const batchId = randomUUID();
    const [edited, untouched, trashed] = (await sealedEntries(account, 3)) as [Sealed, Sealed, Sealed];
    await client.post(apiPaths.entryBatch, { batchId, entries: [edited, untouched, trashed] });
    const change = await encryptEntry(account, { serviceName: 'renamed', username: 'u', password: 'new' }, edited.id);
    expect((await client.put(apiPaths.updateEntry(edited.id), { ...change, revision: 1 })).statusCode).toBe(200);
    expect((await client.delete(`${apiPaths.deleteEntry(trashed.id)}?revision=1`)).statusCode).toBe(200);

    const response = await client.delete(apiPaths.entryBatchUndo(batchId));
    expect(response.json().data).toEqual({ purged: 1, trashed: 1 });
    const left = await list(client);
    expect(left.map((entry) => entry.id).sort()).toEqual([edited.id, trashed.id].sort());
    expect(left.find((entry) => entry.id === edited.id)).toMatchObject({ revision: 3, deletedAt: expect.any(String) });
    expect(left.find((entry) => entry.id === trashed.id)).toMatchObject({ revision: 2, deletedAt: expect.any(String) });
    const history = (await client.get(apiPaths.entryHistory(edited.id))).json().data as Array<{
      revision: number;
      password: string;
    }>;
    expect(history.map((version) => version.revision)).toEqual([2, 1]);
    expect(history[0]!.password).toBe(change.password);
  });

  it("leaves other accounts untouched: another account's batch id is not found, and its entries stay", async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const batchId = randomUUID();
    await alice.client.post(apiPaths.entryBatch, { batchId, entries: await sealedEntries(alice.account, 2) });
    // Bob may even reuse the same batch id (the client makes it): batches are per account.
    await bob.client.post(apiPaths.entryBatch, { batchId, entries: await sealedEntries(bob.account, 1) });
    const alicesBefore = await list(alice.client);

    expect((await bob.client.delete(apiPaths.entryBatchUndo(batchId))).json().data).toEqual({ purged: 1, trashed: 0 });
    const refused = await bob.client.delete(apiPaths.entryBatchUndo(batchId));
    expect(refused.statusCode).toBe(404);
    expect(await list(alice.client)).toEqual(alicesBefore);
    expect(await list(bob.client)).toEqual([]);
  });

  it('refuses a batch id that is not a UUID with a readable 400', async () => {
    const { client } = await signedInUser(h);
    const response = await client.delete(apiPaths.entryBatchUndo('not-a-uuid'));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/batchId must be a UUID/);
  });
});
