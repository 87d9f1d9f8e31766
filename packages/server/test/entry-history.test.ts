import { describe, expect, it } from 'vitest';
import { apiPaths, entryHistoryResponseSchema } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { encryptEntry, encryptItem } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const HISTORY_LIMIT = 3;
const h = useTestApp({ config: { historyLimit: HISTORY_LIMIT } });
const NOT_FOUND = { message: 'Password not found.' };

async function withItem() {
  const user = await signedInUser(h);
  const body = await encryptItem(user.account, {
    serviceName: 'Bank',
    username: 'me',
    password: 'first',
    url: 'https://bank.example',
    overview: { v: 1, type: 'login' },
    details: { v: 1, totp: 'JBSWY3DP' },
  });
  const created = (await user.client.post(apiPaths.addEntry, body)).json().data;
  return { ...user, created };
}

const versionOf = (wire: Record<string, unknown>, replacedAt: unknown) => ({
  revision: wire.revision,
  serviceName: wire.serviceName,
  username: wire.username,
  password: wire.password,
  url: wire.url,
  notes: wire.notes,
  overview: wire.overview,
  details: wire.details,
  savedAt: wire.updatedAt,
  replacedAt,
});

describe('GET /api/passwords/history/{id}', () => {
  it('keeps the version an update replaced, with its old ciphertexts', async () => {
    const { account, client, created } = await withItem();
    expect((await client.get(apiPaths.entryHistory(created.id))).json()).toEqual({ message: 'Success', data: [] });
    h.clock.advance(2_000);
    const next = await encryptEntry(account, { serviceName: 'Bank', username: 'me', password: 'second' }, created.id);
    const updated = (await client.put(apiPaths.updateEntry(created.id), { ...next, overview: null, revision: 1 })).json().data;

    const response = await client.get(apiPaths.entryHistory(created.id));
    expect(response.statusCode).toBe(200);
    const history = entryHistoryResponseSchema.parse(response.json());
    expect(history.data).toEqual([versionOf(created, updated.updatedAt)]);
    expect(history.data[0]!.password).not.toBe(updated.password);
  });

  it('lists versions newest first and keeps only the last HISTORY_LIMIT of them', async () => {
    const { account, client, created } = await withItem();
    const saved = [created];
    for (let n = 2; n <= 6; n += 1) {
      h.clock.advance(1_000);
      const next = await encryptEntry(account, { serviceName: 'Bank', username: 'me', password: `pw ${n}` }, created.id);
      saved.push((await client.put(apiPaths.updateEntry(created.id), { ...next, revision: n - 1 })).json().data);
    }
    const history = (await client.get(apiPaths.entryHistory(created.id))).json().data;
    expect(history.map((version: { revision: number }) => version.revision)).toEqual([5, 4, 3]);
    expect(history).toEqual([5, 4, 3].map((revision) => versionOf(saved[revision - 1]!, saved[revision]!.updatedAt)));
    // Pruned in the database, not only cut from the answer.
    const rows = await h.db.selectFrom('entry_history').select('revision').where('entry_id', '=', created.id).execute();
    expect(rows.map((row) => row.revision).sort()).toEqual([3, 4, 5]);
  });

  it('keeps a version for each move to Trash and each restore', async () => {
    const { client, created } = await withItem();
    const trashed = (await client.delete(`${apiPaths.deleteEntry(created.id)}?revision=1`)).json().data;
    const restored = (await client.post(apiPaths.restoreEntry(created.id), { revision: 2 })).json().data;
    const history = (await client.get(apiPaths.entryHistory(created.id))).json().data;
    expect(history).toEqual([versionOf(trashed, restored.updatedAt), versionOf(created, trashed.updatedAt)]);
  });

  it('keeps nothing for a refused write', async () => {
    const { account, client, created } = await withItem();
    const next = await encryptEntry(account, { serviceName: 'x', username: 'y', password: 'z' }, created.id);
    expect((await client.put(apiPaths.updateEntry(created.id), { ...next, revision: 9 })).statusCode).toBe(409);
    expect((await client.put(apiPaths.updateEntry(created.id), next)).statusCode).toBe(400);
    expect((await client.delete(`${apiPaths.deleteEntry(created.id)}?revision=9`)).statusCode).toBe(409);
    expect((await client.get(apiPaths.entryHistory(created.id))).json().data).toEqual([]);
  });

  it('is never part of the list', async () => {
    const { account, client, created } = await withItem();
    const next = await encryptEntry(account, { serviceName: 'x', username: 'y', password: 'z' }, created.id);
    const updated = (await client.put(apiPaths.updateEntry(created.id), { ...next, revision: 1 })).json().data;
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([updated]);
  });

  it("answers 404 for another account's entry, an unknown id; 400 for a malformed one", async () => {
    const alice = await withItem();
    const bob = await signedInUser(h);
    const next = await encryptEntry(alice.account, { serviceName: 'x', username: 'y', password: 'z' }, alice.created.id);
    await alice.client.put(apiPaths.updateEntry(alice.created.id), { ...next, revision: 1 });
    for (const id of [alice.created.id, alice.created.id.toUpperCase(), newEntryId()]) {
      const response = await bob.client.get(apiPaths.entryHistory(id));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
    const malformed = await bob.client.get(apiPaths.entryHistory('nope'));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'id must be a UUID' });
    expect((await alice.client.get(apiPaths.entryHistory(alice.created.id.toUpperCase()))).json().data).toHaveLength(1);
  });
});
