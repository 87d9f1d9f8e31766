import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { createRepositories } from '../src/db/repositories/index';
import { purgeExpiredTrash } from '../src/vault/trash-purge';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const DAY_MS = 24 * 60 * 60 * 1000;

/** Two accounts, each holding an entry under the same id. */
async function twoAccountsOneId() {
  const id = newEntryId();
  const alice = await signedInUser(h);
  const bob = await signedInUser(h);
  const aliceEntry = await encryptEntry(alice.account, { serviceName: 'a', username: 'alice', password: 'alice-pw' }, id);
  const bobEntry = await encryptEntry(bob.account, { serviceName: 'b', username: 'bob', password: 'bob-pw' }, id);
  expect((await alice.client.post(apiPaths.addEntry, aliceEntry)).statusCode).toBe(201);
  expect((await bob.client.post(apiPaths.addEntry, bobEntry)).statusCode).toBe(201);
  return { id, alice, bob, aliceEntry, bobEntry };
}

const userId = async (username: string) =>
  (await h.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

const listOf = async (client: Awaited<ReturnType<typeof signedInUser>>['client']) =>
  (await client.get(apiPaths.listEntries)).json().data as Array<{ id: string; password: string; revision: number }>;

describe('entry ids are unique per account, not across accounts', () => {
  it('stores both entries of one id, each in its own vault', async () => {
    const { id, alice, bob, aliceEntry, bobEntry } = await twoAccountsOneId();
    expect(await listOf(alice.client)).toMatchObject([{ id, password: aliceEntry.password, revision: 1 }]);
    expect(await listOf(bob.client)).toMatchObject([{ id, password: bobEntry.password, revision: 1 }]);
    const rows = await h.db.selectFrom('entries').select('user_id').where('id', '=', id).execute();
    expect(rows).toHaveLength(2);
  });

  it("still answers 409 for an id already in one's own vault", async () => {
    const { id, alice } = await twoAccountsOneId();
    const again = await encryptEntry(alice.account, { serviceName: 'c', username: 'c', password: 'c' }, id);
    expect((await alice.client.post(apiPaths.addEntry, again)).statusCode).toBe(409);
  });

  it("an update, with its history, touches only one's own entry", async () => {
    const { id, alice, bob, bobEntry } = await twoAccountsOneId();
    const edit = await encryptEntry(alice.account, { serviceName: 'a2', username: 'alice', password: 'changed' }, id);
    expect((await alice.client.put(apiPaths.updateEntry(id), { ...edit, revision: 1 })).statusCode).toBe(200);
    expect(await listOf(bob.client)).toMatchObject([{ id, password: bobEntry.password, revision: 1 }]);
    expect((await bob.client.get(apiPaths.entryHistory(id))).json().data).toEqual([]);
    expect((await alice.client.get(apiPaths.entryHistory(id))).json().data).toHaveLength(1);
  });

  it("Trash, purge and the expired-Trash job touch only one's own entry", async () => {
    const { id, alice, bob, bobEntry } = await twoAccountsOneId();
    expect((await alice.client.delete(`${apiPaths.deleteEntry(id)}?revision=1`)).statusCode).toBe(200);
    expect(await listOf(bob.client)).toMatchObject([{ id, revision: 1 }]);
    expect((await alice.client.delete(`${apiPaths.purgeEntry(id)}?revision=2`)).statusCode).toBe(200);
    expect(await listOf(alice.client)).toEqual([]);
    expect(await listOf(bob.client)).toMatchObject([{ id, password: bobEntry.password }]);
  });

  it("the expired-Trash job takes one account's entry and history, not another's of the same id", async () => {
    const { id, alice, bob } = await twoAccountsOneId();
    // Bob edits his (history), Alice trashes hers; only hers expires.
    const edit = await encryptEntry(bob.account, { serviceName: 'b2', username: 'bob', password: 'bob-pw-2' }, id);
    expect((await bob.client.put(apiPaths.updateEntry(id), { ...edit, revision: 1 })).statusCode).toBe(200);
    expect((await alice.client.delete(`${apiPaths.deleteEntry(id)}?revision=1`)).statusCode).toBe(200);
    h.clock.advance(h.config.trashRetentionDays * DAY_MS + 1);
    await purgeExpiredTrash({ db: h.db, repos: createRepositories(h.db), config: h.config, now: h.clock.now });
    // Read from the database: a month later both sessions have ended.
    const entries = await h.db.selectFrom('entries').select(['user_id', 'password', 'revision']).where('id', '=', id).execute();
    expect(entries).toEqual([{ user_id: await userId(bob.account.username), password: edit.password, revision: 2 }]);
    const history = await h.db.selectFrom('entry_history').select('user_id').where('entry_id', '=', id).execute();
    expect(history).toEqual([{ user_id: await userId(bob.account.username) }]);
  });
});
