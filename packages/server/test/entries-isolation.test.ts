import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const NOT_FOUND = { message: 'Password not found.' };

describe("another account's entries", () => {
  it('are invisible to read, update and delete: 404, and nothing changes', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const entry = await encryptEntry(alice.account, { serviceName: 'bank', username: 'alice', password: 'pw' });
    await alice.client.post(apiPaths.addEntry, entry);
    const before = (await alice.client.get(apiPaths.listEntries)).json().data;

    expect((await bob.client.get(apiPaths.listEntries)).json().data).toEqual([]);

    const forged = await encryptEntry(bob.account, { serviceName: 'x', username: 'x', password: 'x' }, entry.id);
    for (const body of [
      { ...forged, revision: 1 },
      { ...entry, revision: 1 },
      { ...forged, revision: 2 },
    ]) {
      const update = await bob.client.put(apiPaths.updateEntry(entry.id), body);
      expect(update.statusCode).toBe(404);
      expect(update.json()).toEqual(NOT_FOUND);
    }
    for (const id of [entry.id, entry.id.toUpperCase()]) {
      const remove = await bob.client.delete(`${apiPaths.deleteEntry(id)}?revision=1`);
      expect(remove.statusCode).toBe(404);
      expect(remove.json()).toEqual(NOT_FOUND);
    }

    expect((await alice.client.get(apiPaths.listEntries)).json().data).toEqual(before);
  });

  it('are not overwritten when another account adds an entry with the same id: ids are per account', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const entry = await encryptEntry(alice.account, { serviceName: 'bank', username: 'alice', password: 'pw' });
    await alice.client.post(apiPaths.addEntry, entry);
    const own = await encryptEntry(bob.account, { serviceName: 'x', username: 'x', password: 'x' }, entry.id);
    // 201, not 409: an answer that differed would tell Bob that the id exists in some vault.
    expect((await bob.client.post(apiPaths.addEntry, own)).statusCode).toBe(201);
    expect((await alice.client.get(apiPaths.listEntries)).json().data[0].password).toBe(entry.password);
    expect((await bob.client.get(apiPaths.listEntries)).json().data[0].password).toBe(own.password);
  });

  it('stay with their owner after the other account is deleted', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const entry = await encryptEntry(alice.account, { serviceName: 'bank', username: 'alice', password: 'pw' });
    await alice.client.post(apiPaths.addEntry, entry);
    await bob.client.post(apiPaths.addEntry, await encryptEntry(bob.account, { serviceName: 'b', username: 'b', password: 'b' }));
    await bob.client.delete(apiPaths.deleteAccount);
    expect((await alice.client.get(apiPaths.listEntries)).json().data).toHaveLength(1);
  });
});
