import { describe, expect, it } from 'vitest';
import { apiPaths, entryResponseSchema } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { encryptEntry, encryptItem } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const NOT_FOUND = { message: 'Password not found.' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const trash = (id: string, revision?: unknown) =>
  `${apiPaths.deleteEntry(id)}${revision === undefined ? '' : `?revision=${String(revision)}`}`;
const purge = (id: string, revision?: unknown) =>
  `${apiPaths.purgeEntry(id)}${revision === undefined ? '' : `?revision=${String(revision)}`}`;

async function withEntry() {
  const user = await signedInUser(h);
  const body = await encryptItem(user.account, {
    serviceName: 's',
    username: 'u',
    password: 'p',
    overview: { v: 1, type: 'login' },
    details: { v: 1, totp: 'JBSWY3DP' },
  });
  const created = (await user.client.post(apiPaths.addEntry, body)).json().data;
  return { ...user, body, created };
}

describe('DELETE /api/passwords/delete/{id}?revision=N (to Trash)', () => {
  it('moves the entry to Trash: still listed, with deletedAt, at the next revision', async () => {
    const { client, created } = await withEntry();
    h.clock.advance(1_000);
    const response = await client.delete(trash(created.id, 1));
    expect(response.statusCode).toBe(200);
    const answer = entryResponseSchema.parse(response.json());
    expect(answer.message).toBe('Password moved to Trash');
    expect(answer.data).toEqual({
      ...created,
      revision: 2,
      updatedAt: expect.stringMatching(ISO),
      deletedAt: answer.data.updatedAt,
    });
    expect(Date.parse(answer.data.deletedAt!)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([answer.data]);
  });

  it('refuses a delete without a revision with a readable 400, and the entry stays', async () => {
    const { client, created } = await withEntry();
    for (const url of [
      trash(created.id),
      trash(created.id, ''),
      trash(created.id, 'abc'),
      trash(created.id, 0),
      trash(created.id, '1.5'),
      `${trash(created.id, 1)}&revision=1`,
    ]) {
      const response = await client.delete(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/^revision (is required|must be)/);
    }
    expect((await client.delete(trash(created.id))).json()).toEqual({
      message: 'revision is required: the revision this change is based on',
    });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([created]);
  });

  it('refuses a stale delete with 409 and the entry as it is now; the edit it never saw stays', async () => {
    const { account, client, created } = await withEntry();
    const edit = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'edited elsewhere' }, created.id);
    const edited = (await client.put(apiPaths.updateEntry(created.id), { ...edit, revision: 1 })).json().data;
    const stale = await client.delete(trash(created.id, 1));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: 'This password was changed elsewhere. Reload and try again.', data: edited });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([edited]);
  });

  it('refuses to trash an entry already in Trash (409, with it)', async () => {
    const { client, created } = await withEntry();
    const trashed = (await client.delete(trash(created.id, 1))).json().data;
    const again = await client.delete(trash(created.id, 2));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This password is already in Trash.', data: trashed });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const { client } = await signedInUser(h);
    const unknown = await client.delete(trash(newEntryId(), 1));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(NOT_FOUND);
    const malformed = await client.delete(trash('1234', 1));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'id must be a UUID' });
  });

  it('lets an entry in Trash be edited; it stays in Trash', async () => {
    const { account, client, created } = await withEntry();
    const trashed = (await client.delete(trash(created.id, 1))).json().data;
    const edit = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p2' }, created.id);
    const response = await client.put(apiPaths.updateEntry(created.id), { ...edit, revision: 2 });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ revision: 3, deletedAt: trashed.deletedAt, password: edit.password });
  });
});

describe('POST /api/passwords/restore/{id}', () => {
  it('brings a trashed entry back to the list at the next revision', async () => {
    const { client, created } = await withEntry();
    await client.delete(trash(created.id, 1));
    const response = await client.post(apiPaths.restoreEntry(created.id), { revision: 2 });
    expect(response.statusCode).toBe(200);
    const answer = entryResponseSchema.parse(response.json());
    expect(answer.message).toBe('Password restored');
    expect(answer.data).toEqual({ ...created, revision: 3, updatedAt: expect.stringMatching(ISO), deletedAt: null });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([answer.data]);
  });

  it('refuses a live entry (409), a stale revision (409), no revision (400), and changes nothing', async () => {
    const { client, created } = await withEntry();
    const live = await client.post(apiPaths.restoreEntry(created.id), { revision: 1 });
    expect(live.statusCode).toBe(409);
    expect(live.json()).toEqual({ message: 'This password is not in Trash.', data: created });

    const trashed = (await client.delete(trash(created.id, 1))).json().data;
    const stale = await client.post(apiPaths.restoreEntry(created.id), { revision: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: 'This password was changed elsewhere. Reload and try again.', data: trashed });

    for (const body of [{}, { revision: 'two' }, { revision: 0 }]) {
      const bad = await client.post(apiPaths.restoreEntry(created.id), body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^revision /);
    }
    expect((await client.post(apiPaths.restoreEntry(created.id))).json()).toEqual({
      message: 'The request body must be a JSON object.',
    });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([trashed]);
  });

  it('answers 404 for an unknown id', async () => {
    const { client } = await signedInUser(h);
    const response = await client.post(apiPaths.restoreEntry(newEntryId()), { revision: 1 });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND);
  });
});

describe('DELETE /api/passwords/purge/{id}?revision=N', () => {
  it('deletes a trashed entry and its history for good', async () => {
    const { account, client, created } = await withEntry();
    const edit = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p2' }, created.id);
    await client.put(apiPaths.updateEntry(created.id), { ...edit, revision: 1 });
    await client.delete(trash(created.id, 2));
    expect((await client.get(apiPaths.entryHistory(created.id))).json().data).toHaveLength(2);

    const response = await client.delete(purge(created.id, 3));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Password deleted for good' });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([]);
    expect((await client.get(apiPaths.entryHistory(created.id))).json()).toEqual(NOT_FOUND);
    expect(await h.db.selectFrom('entry_history').select('id').where('entry_id', '=', created.id).execute()).toEqual([]);
    expect((await client.delete(purge(created.id, 3))).json()).toEqual(NOT_FOUND);
  });

  it('refuses a live entry: it must go to Trash first (409, with it)', async () => {
    const { client, created } = await withEntry();
    const response = await client.delete(purge(created.id, 1));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'Move this password to Trash first.', data: created });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([created]);
  });

  it('refuses a stale revision (409) and a missing one (400); the entry stays in Trash', async () => {
    const { client, created } = await withEntry();
    const trashed = (await client.delete(trash(created.id, 1))).json().data;
    const stale = await client.delete(purge(created.id, 1));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: 'This password was changed elsewhere. Reload and try again.', data: trashed });
    const missing = await client.delete(purge(created.id));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: 'revision is required: the revision this change is based on' });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([trashed]);
  });

  it('answers 404 for an unknown id', async () => {
    const { client } = await signedInUser(h);
    expect((await client.delete(purge(newEntryId(), 1))).json()).toEqual(NOT_FOUND);
  });
});

describe("another account's entry", () => {
  it('cannot be trashed, restored, purged or read back in history: 404, and nothing changes', async () => {
    const alice = await withEntry();
    const bob = await signedInUser(h);
    const id = alice.created.id;
    const answers = [
      await bob.client.delete(trash(id, 1)),
      await bob.client.post(apiPaths.restoreEntry(id), { revision: 1 }),
      await bob.client.delete(purge(id, 1)),
      await bob.client.get(apiPaths.entryHistory(id)),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual(NOT_FOUND);
    }
    const trashed = (await alice.client.delete(trash(id, 1))).json().data;
    expect((await bob.client.post(apiPaths.restoreEntry(id), { revision: 2 })).statusCode).toBe(404);
    expect((await bob.client.delete(purge(id, 2))).statusCode).toBe(404);
    expect((await alice.client.get(apiPaths.listEntries)).json().data).toEqual([trashed]);
  });
});

describe('a revision past what the database holds', () => {
  it('is refused with a readable 400 on every write, never a database error', async () => {
    const { account, client, created } = await withEntry();
    const tooLarge = 2 ** 31;
    const message = { message: 'revision must be at most 2147483647' };
    const edit = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, created.id);
    const answers = [
      await client.put(apiPaths.updateEntry(created.id), { ...edit, revision: tooLarge }),
      await client.delete(trash(created.id, tooLarge)),
      await client.post(apiPaths.restoreEntry(created.id), { revision: tooLarge }),
      await client.delete(purge(created.id, tooLarge)),
      await client.put(apiPaths.folder(created.id), { name: created.password, revision: tooLarge }),
      await client.delete(`${apiPaths.folder(created.id)}?revision=${tooLarge}`),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual(message);
    }
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([created]);
  });
});
