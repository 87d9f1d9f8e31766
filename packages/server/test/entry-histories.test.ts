import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { apiPaths, ENTRY_HISTORIES_MAX_IDS, entryHistoriesResponseSchema } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { snapshotDatabase } from './helpers/db-snapshot';
import { encryptEntry, encryptItem } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const HISTORY_LIMIT = 3;
const h = useTestApp({ config: { historyLimit: HISTORY_LIMIT } });

type User = Awaited<ReturnType<typeof signedInUser>>;
interface Wire {
  id: string;
  revision: number;
  password: string;
}

async function addItem({ account, client }: User, serviceName: string): Promise<Wire> {
  const body = await encryptItem(account, { serviceName, username: 'me', password: 'first', overview: { v: 1, type: 'login' } });
  return (await client.post(apiPaths.addEntry, body)).json().data;
}

/** `edits` updates in a row, a second apart; the entry as it is after the last. */
async function edit({ account, client }: User, entry: Wire, edits: number): Promise<Wire> {
  let current = entry;
  for (let n = 1; n <= edits; n += 1) {
    h.clock.advance(1_000);
    const next = await encryptEntry(account, { serviceName: 'Edited', username: 'me', password: `pw ${n}` }, entry.id);
    current = (await client.put(apiPaths.updateEntry(entry.id), { ...next, revision: current.revision })).json().data;
  }
  return current;
}

const historiesOf = (client: User['client'], ids: unknown) => client.post(apiPaths.entryHistories, { ids });
const singleHistory = async (client: User['client'], id: string) => (await client.get(apiPaths.entryHistory(id))).json().data;

describe('POST /api/entries/histories', () => {
  it('answers several histories in one call, each as the single history call does, in the order asked', async () => {
    const user = await signedInUser(h);
    const [twice, never, once] = [await addItem(user, 'Twice'), await addItem(user, 'Never'), await addItem(user, 'Once')];
    await edit(user, twice, 2);
    await edit(user, once, 1);
    const before = await snapshotDatabase(h.db);

    const response = await historiesOf(user.client, [once.id, twice.id.toUpperCase(), never.id]);
    expect(response.statusCode).toBe(200);
    const answer = entryHistoriesResponseSchema.parse(response.json());
    expect(answer.message).toBe('Success');
    expect(answer.data.map((item) => item.id)).toEqual([once.id, twice.id, never.id]);
    for (const item of answer.data) expect(item.versions).toEqual(await singleHistory(user.client, item.id));
    expect(answer.data.map((item) => item.versions.map((version) => version.revision))).toEqual([[1], [2, 1], []]);
    expect(await snapshotDatabase(h.db)).toEqual(before);
  });

  it('includes the history of entries in Trash', async () => {
    const user = await signedInUser(h);
    const entry = await edit(user, await addItem(user, 'Old'), 1);
    const trashed = await user.client.delete(`${apiPaths.deleteEntry(entry.id)}?revision=${entry.revision}`);
    expect(trashed.json().data.deletedAt).not.toBeNull();

    const answer = entryHistoriesResponseSchema.parse((await historiesOf(user.client, [entry.id])).json());
    expect(answer.data).toEqual([{ id: entry.id, versions: await singleHistory(user.client, entry.id) }]);
    expect(answer.data[0]!.versions.map((version) => version.revision)).toEqual([2, 1]);
  });

  it('keeps at most HISTORY_LIMIT versions per entry, newest first, even of versions kept under a higher limit', async () => {
    const user = await signedInUser(h);
    const [first, second, short] = [await addItem(user, 'A'), await addItem(user, 'B'), await addItem(user, 'C')];
    await edit(user, first, 5);
    await edit(user, second, 4);
    await edit(user, short, 1);
    // Versions a higher HISTORY_LIMIT kept before it was lowered: pruned only at the next write.
    for (const entry of [first, second]) {
      const kept = await h.db
        .selectFrom('entry_history')
        .selectAll()
        .where('entry_id', '=', entry.id)
        .orderBy('revision')
        .execute();
      const oldest = kept[0]!;
      for (let revision = 1; revision < oldest.revision; revision += 1) {
        await h.db
          .insertInto('entry_history')
          .values({ ...oldest, id: randomUUID(), revision })
          .execute();
      }
    }

    const answer = entryHistoriesResponseSchema.parse((await historiesOf(user.client, [first.id, second.id, short.id])).json());
    expect(answer.data.map((item) => item.versions.map((version) => version.revision))).toEqual([[5, 4, 3], [4, 3, 2], [1]]);
    for (const item of answer.data) expect(item.versions).toEqual(await singleHistory(user.client, item.id));
  });

  it("leaves out another account's entries and unknown ids, and shows nothing of another account's history", async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const alices = await addItem(alice, 'Alice');
    const alicesEdited = await edit(alice, alices, 2);
    const bobs = await edit(bob, await addItem(bob, 'Bob'), 1);
    const alicesHistory = await singleHistory(alice.client, alices.id);
    expect(alicesHistory).toHaveLength(2);

    const response = await historiesOf(bob.client, [alices.id, newEntryId(), bobs.id]);
    expect(response.statusCode).toBe(200);
    const answer = entryHistoriesResponseSchema.parse(response.json());
    expect(answer.data).toEqual([{ id: bobs.id, versions: await singleHistory(bob.client, bobs.id) }]);
    for (const secret of [alices.id, alices.password, alicesEdited.password, ...alicesHistory.map((v: Wire) => v.password)]) {
      expect(response.body).not.toContain(secret);
    }
    expect((await historiesOf(bob.client, [alices.id.toUpperCase()])).json()).toEqual({ message: 'Success', data: [] });
  });

  it(`takes ${ENTRY_HISTORIES_MAX_IDS} ids, in as many queries as for two`, async () => {
    const user = await signedInUser(h);
    const entries = [await addItem(user, 'One'), await addItem(user, 'Two')];
    await edit(user, entries[1]!, 1);
    const unknown = Array.from({ length: ENTRY_HISTORIES_MAX_IDS - entries.length }, () => newEntryId());
    const queries = vi.spyOn(h.db, 'selectFrom');
    try {
      const small = await historiesOf(
        user.client,
        entries.map((entry) => entry.id),
      );
      const queriesForTwo = queries.mock.calls.length;
      expect(queriesForTwo).toBeGreaterThanOrEqual(2);
      queries.mockClear();
      const full = await historiesOf(user.client, [
        ...unknown.slice(0, 250),
        entries[1]!.id,
        ...unknown.slice(250),
        entries[0]!.id,
      ]);
      expect(full.statusCode).toBe(200);
      expect(queries.mock.calls.length).toBe(queriesForTwo);
      expect(entryHistoriesResponseSchema.parse(full.json()).data).toEqual([...small.json().data].reverse());
    } finally {
      queries.mockRestore();
    }
  });

  it('answers 401 without a session', async () => {
    const user = await signedInUser(h);
    const entry = await edit(user, await addItem(user, 'Mine'), 1);
    const response = await h.client().post(apiPaths.entryHistories, { ids: [entry.id] });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Please sign in.' });
  });

  it('refuses a malformed call with a readable 400', async () => {
    const { client } = await signedInUser(h);
    const id = newEntryId();
    const cases: Array<[unknown, string]> = [
      [undefined, 'The request body must be a JSON object.'],
      [{}, 'ids is required'],
      [{ ids: id }, 'ids must be an array'],
      [{ ids: [] }, 'ids must hold at least one id'],
      [{ ids: Array.from({ length: ENTRY_HISTORIES_MAX_IDS + 1 }, () => newEntryId()) }, 'ids must hold at most 500 ids'],
      [{ ids: [id, 'not-a-uuid'] }, 'ids.1 must be a UUID'],
      [{ ids: [id, 42] }, 'ids.1 must be a UUID'],
      [{ ids: [id, newEntryId(), id.toUpperCase()] }, 'ids must not repeat an id'],
    ];
    for (const [body, message] of cases) {
      const response = await client.post(apiPaths.entryHistories, body);
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toEqual({ message });
    }
  });
});
