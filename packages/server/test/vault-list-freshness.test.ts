import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
import { signedInUser } from './helpers/accounts';
import { InjectClient } from './helpers/inject-client';
import { encryptEntry } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

/** A second server process on the same database, as behind a load balancer. */
let other: FastifyInstance;
beforeAll(async () => {
  other = await buildApp(h.config, { db: h.db, now: h.clock.now });
  await other.ready();
});
afterAll(async () => other?.close());

const ids = async (client: InjectClient) => {
  const response = await client.get(apiPaths.listEntries);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return (response.json().data as Array<{ id: string; password: string; deletedAt: string | null }>).map(
    (entry) => `${entry.id}:${entry.password}${entry.deletedAt === null ? '' : ' (in Trash)'}`,
  );
};

/** The same browser (cookies) talking to the other process. */
function viaOther(client: InjectClient): InjectClient {
  const twin = new InjectClient(other);
  for (const [name, value] of client.jar) twin.jar.set(name, value);
  return twin;
}

describe('the vault list after writes (it is reused per vault revision)', () => {
  it('shows an add, an update, a move to Trash, a restore and a purge on the very next read', async () => {
    const { account, client } = await signedInUser(h);
    expect(await ids(client)).toEqual([]);
    const first = await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'one' });
    await client.post(apiPaths.addEntry, first);
    expect(await ids(client)).toEqual([`${first.id}:${first.password}`]);
    expect(await ids(client)).toEqual([`${first.id}:${first.password}`]);

    const changed = await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'two' }, first.id);
    expect((await client.put(apiPaths.updateEntry(first.id), { ...changed, revision: 1 })).statusCode).toBe(200);
    expect(await ids(client)).toEqual([`${first.id}:${changed.password}`]);

    expect((await client.delete(`${apiPaths.deleteEntry(first.id)}?revision=2`)).statusCode).toBe(200);
    expect(await ids(client)).toEqual([`${first.id}:${changed.password} (in Trash)`]);
    expect((await client.post(apiPaths.restoreEntry(first.id), { revision: 3 })).statusCode).toBe(200);
    expect(await ids(client)).toEqual([`${first.id}:${changed.password}`]);
    expect((await client.delete(`${apiPaths.deleteEntry(first.id)}?revision=4`)).statusCode).toBe(200);
    expect(await ids(client)).toEqual([`${first.id}:${changed.password} (in Trash)`]);
    expect((await client.delete(`${apiPaths.purgeEntry(first.id)}?revision=5`)).statusCode).toBe(200);
    expect(await ids(client)).toEqual([]);
  });

  it('never lets another server process answer with a list older than a write it did not see', async () => {
    const { account, client } = await signedInUser(h);
    const twin = viaOther(client);
    const entry = await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'c' });
    await client.post(apiPaths.addEntry, entry);
    expect(await ids(twin)).toEqual([`${entry.id}:${entry.password}`]); // now held by the other process

    const second = await encryptEntry(account, { serviceName: 'd', username: 'e', password: 'f' });
    expect((await client.post(apiPaths.addEntry, second)).statusCode).toBe(201);
    expect(await ids(twin)).toEqual([`${entry.id}:${entry.password}`, `${second.id}:${second.password}`]);

    expect((await client.delete(`${apiPaths.deleteEntry(entry.id)}?revision=1`)).statusCode).toBe(200);
    expect(await ids(twin)).toEqual([`${entry.id}:${entry.password} (in Trash)`, `${second.id}:${second.password}`]);
    expect((await client.delete(`${apiPaths.purgeEntry(entry.id)}?revision=2`)).statusCode).toBe(200);
    expect(await ids(twin)).toEqual([`${second.id}:${second.password}`]);
  });

  it("never answers one account with another's list", async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const entry = await encryptEntry(alice.account, { serviceName: 'a', username: 'b', password: 'c' });
    await alice.client.post(apiPaths.addEntry, entry);
    expect(await ids(alice.client)).toHaveLength(1);
    expect(await ids(bob.client)).toEqual([]);
  });
});
