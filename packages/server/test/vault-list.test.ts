import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
import { signedInUser, type TestAccount } from './helpers/accounts';
import { InjectClient } from './helpers/inject-client';
import { encryptEntry } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

/**
 * The list answer is reused per (user, vault revision) in each process's memory. These tests
 * hold that reuse to the database: another app on its own connection to the same database
 * stands in for another server process with a cache of its own.
 */
const h = useTestApp();
let other: FastifyInstance;

beforeAll(async () => {
  other = await buildApp(h.config);
  await other.ready();
});
afterAll(async () => {
  await other?.close();
});

/** The same browser (cookies) talking to the other process. */
function onOther(client: InjectClient): InjectClient {
  const copy = new InjectClient(other);
  for (const [name, value] of client.jar) copy.jar.set(name, value);
  return copy;
}

async function listedIds(client: InjectClient): Promise<string[]> {
  const response = await client.get(apiPaths.listEntries);
  expect(response.statusCode).toBe(200);
  return (response.json().data as Array<{ id: string }>).map((entry) => entry.id);
}

async function vaultRevision(userId: string): Promise<number> {
  const row = await h.db.selectFrom('users').select('vault_revision').where('id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.vault_revision);
}

async function userIdOf(account: TestAccount): Promise<string> {
  const row = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
  return row.id;
}

const plain = (n: number) => ({ serviceName: `Service ${n}`, username: `me${n}`, password: `pw${n}` });

describe('the vault list across processes', () => {
  it('shows an add, an update, a move to Trash, a restore and a purge made on another process at once', async () => {
    const { account, client } = await signedInUser(h);
    const first = await encryptEntry(account, plain(1));
    expect((await client.post(apiPaths.addEntry, first)).statusCode).toBe(201);
    expect(await listedIds(client)).toEqual([first.id]); // now held by this process

    const second = await encryptEntry(account, plain(2));
    expect((await onOther(client).post(apiPaths.addEntry, second)).statusCode).toBe(201);
    expect(await listedIds(client)).toEqual([first.id, second.id]);

    const changed = await encryptEntry(account, plain(3), first.id);
    expect((await onOther(client).put(apiPaths.updateEntry(first.id), { ...changed, revision: 1 })).statusCode).toBe(200);
    const afterUpdate = (await client.get(apiPaths.listEntries)).json().data as Array<{
      id: string;
      password: string;
      revision: number;
    }>;
    expect(afterUpdate[0]).toMatchObject({ id: first.id, password: changed.password, revision: 2 });

    const deletedAt = (entries: Array<{ deletedAt: string | null }>) => entries.map((entry) => entry.deletedAt !== null);
    expect((await onOther(client).delete(`${apiPaths.deleteEntry(second.id)}?revision=1`)).statusCode).toBe(200);
    expect(deletedAt((await client.get(apiPaths.listEntries)).json().data)).toEqual([false, true]);
    expect((await onOther(client).post(apiPaths.restoreEntry(second.id), { revision: 2 })).statusCode).toBe(200);
    expect(deletedAt((await client.get(apiPaths.listEntries)).json().data)).toEqual([false, false]);
    expect((await onOther(client).delete(`${apiPaths.deleteEntry(second.id)}?revision=3`)).statusCode).toBe(200);
    expect(deletedAt((await client.get(apiPaths.listEntries)).json().data)).toEqual([false, true]);
    expect((await onOther(client).delete(`${apiPaths.purgeEntry(second.id)}?revision=4`)).statusCode).toBe(200);
    expect(await listedIds(client)).toEqual([first.id]);
  });

  it('ends on both processes with a logout on one', async () => {
    const { client } = await signedInUser(h);
    const copy = onOther(client);
    expect((await copy.get(apiPaths.listEntries)).statusCode).toBe(200);
    expect((await client.post(apiPaths.logout)).statusCode).toBe(200);
    expect((await copy.get(apiPaths.listEntries)).statusCode).toBe(401);
  });
});

describe('the vault revision', () => {
  it('goes up with every add, update, move to Trash, restore and purge, and not with a refused write', async () => {
    const { account, client } = await signedInUser(h);
    const userId = await userIdOf(account);
    expect(await vaultRevision(userId)).toBe(0);

    const entry = await encryptEntry(account, plain(1));
    expect((await client.post(apiPaths.addEntry, entry)).statusCode).toBe(201);
    expect(await vaultRevision(userId)).toBe(1);
    expect((await client.post(apiPaths.addEntry, entry)).statusCode).toBe(409);
    expect(await vaultRevision(userId)).toBe(1);

    const update = await encryptEntry(account, plain(2), entry.id);
    expect((await client.put(apiPaths.updateEntry(entry.id), { ...update, revision: 1 })).statusCode).toBe(200);
    expect(await vaultRevision(userId)).toBe(2);
    expect((await client.put(apiPaths.updateEntry(entry.id), { ...update, revision: 1 })).statusCode).toBe(409);
    expect((await client.put(apiPaths.updateEntry(entry.id), update)).statusCode).toBe(400);
    expect(await vaultRevision(userId)).toBe(2);

    const trash = (revision: number) => client.delete(`${apiPaths.deleteEntry(entry.id)}?revision=${revision}`);
    expect((await trash(2)).statusCode).toBe(200);
    expect(await vaultRevision(userId)).toBe(3);
    expect((await trash(2)).statusCode).toBe(409);
    expect((await trash(3)).statusCode).toBe(409);
    expect(await vaultRevision(userId)).toBe(3);

    expect((await client.post(apiPaths.restoreEntry(entry.id), { revision: 3 })).statusCode).toBe(200);
    expect(await vaultRevision(userId)).toBe(4);
    expect((await client.post(apiPaths.restoreEntry(entry.id), { revision: 4 })).statusCode).toBe(409);
    expect((await trash(4)).statusCode).toBe(200);
    expect(await vaultRevision(userId)).toBe(5);

    const purge = (revision: number) => client.delete(`${apiPaths.purgeEntry(entry.id)}?revision=${revision}`);
    expect((await purge(4)).statusCode).toBe(409);
    expect(await vaultRevision(userId)).toBe(5);
    expect((await purge(5)).statusCode).toBe(200);
    expect(await vaultRevision(userId)).toBe(6);
    expect((await purge(5)).statusCode).toBe(404);
    expect(await vaultRevision(userId)).toBe(6);
  });

  it("of another account never brings one's own list: same revision, own entries", async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const aliceEntry = await encryptEntry(alice.account, plain(1));
    const bobEntry = await encryptEntry(bob.account, plain(1));
    expect((await alice.client.post(apiPaths.addEntry, aliceEntry)).statusCode).toBe(201);
    expect((await bob.client.post(apiPaths.addEntry, bobEntry)).statusCode).toBe(201);
    expect(await vaultRevision(await userIdOf(alice.account))).toBe(await vaultRevision(await userIdOf(bob.account)));
    expect(await listedIds(alice.client)).toEqual([aliceEntry.id]);
    expect(await listedIds(bob.client)).toEqual([bobEntry.id]);
    expect(await listedIds(alice.client)).toEqual([aliceEntry.id]);
  });
});

describe('ETag and If-None-Match on the list', () => {
  it('answers 304 without a body while the list is unchanged, 200 with a new ETag after a write', async () => {
    const { account, client } = await signedInUser(h);
    expect((await client.post(apiPaths.addEntry, await encryptEntry(account, plain(1)))).statusCode).toBe(201);
    const first = await client.get(apiPaths.listEntries);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    for (const app of [client, onOther(client)]) {
      const unchanged = await app.get(apiPaths.listEntries, { headers: { 'if-none-match': etag } });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.body).toBe('');
      expect(unchanged.headers.etag).toBe(etag);
      expect(unchanged.headers['cache-control']).toBe('no-store');
    }
    const other = await client.get(apiPaths.listEntries, { headers: { 'if-none-match': '"something-else"' } });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(first.body);

    expect((await onOther(client).post(apiPaths.addEntry, await encryptEntry(account, plain(2)))).statusCode).toBe(201);
    const changed = await client.get(apiPaths.listEntries, { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toHaveLength(2);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it("does not answer 304 to another account's ETag when the lists differ", async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    expect((await alice.client.post(apiPaths.addEntry, await encryptEntry(alice.account, plain(1)))).statusCode).toBe(201);
    expect((await bob.client.post(apiPaths.addEntry, await encryptEntry(bob.account, plain(1)))).statusCode).toBe(201);
    const aliceList = await alice.client.get(apiPaths.listEntries);
    const bobList = await bob.client.get(apiPaths.listEntries, { headers: { 'if-none-match': String(aliceList.headers.etag) } });
    expect(bobList.statusCode).toBe(200);
    expect(bobList.body).not.toBe(aliceList.body);
    expect(bobList.headers.etag).not.toBe(aliceList.headers.etag);
  });

  it('needs a session like the list itself', async () => {
    const anonymous = await h.client().get(apiPaths.listEntries, { headers: { 'if-none-match': '*' } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers.etag).toBeUndefined();
  });
});

describe('session lookups that arrive together', () => {
  it('each find their own session and user, and an ended session among them fails alone', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => signedInUser(h)));
    const ended = users[4]!.client.clone();
    expect((await users[4]!.client.post(apiPaths.logout)).statusCode).toBe(200);
    const rounds = await Promise.all(
      [...users.slice(0, 4), ...users.slice(0, 4)]
        .map(({ client }) => client.post(apiPaths.verifySession))
        .concat(ended.post(apiPaths.verifySession)),
    );
    rounds.slice(0, 8).forEach((response, i) => {
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ username: users[i % 4]!.account.username });
    });
    expect(rounds[8]!.statusCode).toBe(401);
  });
});
