import {
  apiPaths,
  CHANGE_CURSOR_HEADER,
  parseChangeCursor,
  VAULT_STATE_HEADER,
  vaultChangesResponseSchema,
  type EntryWire,
  type FolderWire,
  type VaultChangesWire,
} from '@lockit/contract';
import { eventSourceOf, type VerifiedAccount } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import { accountRefOf, liveChanges, VaultMirror, VaultSync, type CatchUpRefused, type CaughtUp } from '../src';
import { coreDevice, databaseKind } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';
import { sealedWriter } from './support/sealed-writes';

const env = useCoreServer();

/**
 * A device of `verified`'s account running the core's catch-up, through `baseUrl` (the real
 * server, or the lying one in front of it); the account's own client is the other, honest device.
 */
async function syncingDevice(verified: VerifiedAccount, baseUrl: string) {
  const device = coreDevice(baseUrl);
  for (const [name, value] of verified.client.cookies) device.cookies.cookies.set(name, value);
  const writer = await sealedWriter(verified.account, verified.client);
  const account = await accountRefOf(verified.account.username);
  const sync = new VaultSync({
    api: device.platform.api,
    vaultKey: verified.vaultKey,
    integrityKey: writer.integrityKey,
    memory: device.memory,
    account,
  });
  return { device, writer, sync, account };
}

function passed(result: CaughtUp | CatchUpRefused): CaughtUp {
  if (!result.ok) throw new Error(`the catch-up was refused: ${JSON.stringify(result.report)}`);
  return result;
}

function refused(result: CaughtUp | CatchUpRefused): CatchUpRefused['report'] {
  if (result.ok) throw new Error('the catch-up passed a lying server');
  return result.report;
}

const changesPath = apiPaths.vaultChanges;
const changeRequests = () => env.proxy.recorded.filter((request) => request.path.startsWith(changesPath)).length;

/** The data of a changes answer as the proxy intercepted it, for a rule to rewrite. */
const dataOf = (body: unknown) => (body as { data: VaultChangesWire }).data;

/** The list answer as a client loads it: its entries, vault state and change cursor, and the folders. */
async function loadedList(verified: VerifiedAccount) {
  const list = await verified.client.request('GET', apiPaths.listEntries);
  const folders = await verified.client.request('GET', apiPaths.folders);
  const cursor = parseChangeCursor(list.headers.get(CHANGE_CURSOR_HEADER));
  if (cursor === null) throw new Error('the list answer carries no change cursor');
  return {
    cursor,
    state: list.headers.get(VAULT_STATE_HEADER),
    entries: (list.body as { data: EntryWire[] }).data,
    folders: (folders.body as { data: FolderWire[] }).data,
  };
}

describe(`the client core follows the vault through the change cursor (${databaseKind})`, () => {
  it('catches up after edits, moves to Trash and purges on another device, and ends at what a full read shows', async () => {
    const verified = await env.account();
    const { writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    const a = await writer.add({ serviceName: 'Alpha', username: 'a', password: '1' });
    const b = await writer.add({ serviceName: 'Beta', username: 'b', password: '2' });
    const first = passed(await sync.catchUp());
    expect(first.reloaded).toBe(false);
    expect([...first.mirror.entries.keys()].sort()).toEqual([a, b].sort());

    await writer.edit(a, { serviceName: 'Alpha', username: 'a', password: 'changed' });
    await writer.trash(b);
    const second = passed(await sync.catchUp());
    expect(second.changed.entries.sort()).toEqual([a, b].sort());
    expect(second.mirror.entries.get(a)!.revision).toBe(2);
    expect(second.mirror.entries.get(b)!.deletedAt).not.toBeNull();

    await writer.purge(b);
    const third = passed(await sync.catchUp());
    expect(third.changed).toEqual({ entries: [], folders: [], purgedEntries: [b], purgedFolders: [] });
    // The same vault a full read gives, member for member.
    const full = vaultChangesResponseSchema.parse((await verified.client.request('GET', `${changesPath}?since=0`)).body).data;
    if (full.reset) throw new Error('a full read cannot reset');
    expect([...third.mirror.entries.values()]).toEqual(full.entries);
    expect(third.mirror.state).toBe(full.vaultState);
  });

  it('seeded with a loaded list at its cursor, the first catch-up reads only what changed after it', async () => {
    const verified = await env.account();
    const { writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    const a = await writer.add({ serviceName: 'Alpha', username: 'a', password: '1' });
    await writer.add({ serviceName: 'Beta', username: 'b', password: '2' });
    const seed = await loadedList(verified);
    sync.seed(VaultMirror.seeded(seed));
    expect(sync.mirror.cursor).toBe(seed.cursor);

    await writer.edit(a, { serviceName: 'Alpha', username: 'a', password: 'changed' });
    const before = env.proxy.recorded.length;
    const caught = passed(await sync.catchUp());
    const asked = env.proxy.recorded.slice(before).map((request) => request.path);
    expect(asked).toEqual([`${changesPath}?since=${seed.cursor}`]);
    expect(caught.changed.entries).toEqual([a]);
    expect(caught.mirror.entries.size).toBe(2);
    // A seed never replaces a mirror that holds something.
    sync.seed(VaultMirror.seeded({ ...seed, entries: [] }));
    expect(sync.mirror).toBe(caught.mirror);
  });

  it('refuses a seeded mirror that the changes do not bring to the stored state, and keeps it', async () => {
    const verified = await env.account();
    const { writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    await writer.add({ serviceName: 'Alpha', username: 'a', password: '1' });
    const b = await writer.add({ serviceName: 'Beta', username: 'b', password: '2' });
    const seed = await loadedList(verified);
    // A list with an entry left out, as a lying server could serve it with an honest cursor.
    const seeded = VaultMirror.seeded({ ...seed, entries: seed.entries.filter((entry) => entry.id !== b) });
    sync.seed(seeded);
    expect(refused(await sync.catchUp()).kind).toBe('incomplete');
    expect(sync.mirror).toBe(seeded);
  });

  it('runs calls made during a catch-up as one more request, whatever their number', async () => {
    const verified = await env.account();
    const { writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    await writer.add({ serviceName: 'Alpha', username: 'a', password: '1' });
    const before = changeRequests();
    const results = await Promise.all(Array.from({ length: 6 }, () => sync.catchUp()));
    expect(changeRequests() - before).toBe(2);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(sync.mirror.entries.size).toBe(1);
  });

  it('reads the vault whole when the server cannot answer the cursor, and checks it the same way', async () => {
    const verified = await env.account();
    const { writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    await writer.add({ serviceName: 'Alpha', username: 'a', password: '1' });
    const first = passed(await sync.catchUp());
    await writer.add({ serviceName: 'Beta', username: 'b', password: '2' });
    env.proxy.rewrite({
      path: changesPath,
      times: 1,
      rewrite: () => ({ message: 'Success', data: { reset: true, cursor: first.mirror.cursor + 1, reason: 'behind-floor' } }),
    });
    const next = passed(await sync.catchUp());
    expect(next.reloaded).toBe(true);
    expect(next.mirror.entries.size).toBe(2);
  });

  it('refuses a server that withholds a change, and keeps what it held', async () => {
    const verified = await env.account();
    const { writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    const a = await writer.add({ serviceName: 'Alpha', username: 'a', password: '1' });
    const before = passed(await sync.catchUp()).mirror;
    await writer.edit(a, { serviceName: 'Alpha', username: 'a', password: 'new password' });
    await writer.add({ serviceName: 'Beta', username: 'b', password: '2' });
    // The lie: the new state, but the edit left out.
    env.proxy.rewrite({
      path: changesPath,
      rewrite: ({ body }) => {
        const data = dataOf(body);
        if (!data.reset) data.entries = data.entries.filter((entry) => entry.id !== a);
      },
    });
    const report = refused(await sync.catchUp());
    expect(['incomplete', 'older']).toContain(report.kind);
    expect(sync.mirror).toBe(before);
  });

  it('refuses a server that brings back an entry deleted for good', async () => {
    const verified = await env.account();
    const { writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    const gone = await writer.add({ serviceName: 'Gone', username: 'g', password: '1' });
    await writer.add({ serviceName: 'Kept', username: 'k', password: '2' });
    await writer.trash(gone);
    const held = passed(await sync.catchUp()).mirror;
    const wire = held.entries.get(gone)!;
    await writer.purge(gone);
    // The lie: no tombstone, and the entry served again as it was.
    env.proxy.rewrite({
      path: changesPath,
      rewrite: ({ body }) => {
        const data = dataOf(body);
        if (data.reset) return;
        data.purgedEntries = [];
        data.entries = [...data.entries, wire];
      },
    });
    expect(refused(await sync.catchUp()).kind).toBe('unknown-members');
    expect(sync.mirror).toBe(held);
    // The honest answer passes.
    env.proxy.clearRules();
    expect(passed(await sync.catchUp()).mirror.entries.has(gone)).toBe(false);
  });

  it('refuses a server that rolls the vault back to an earlier state', async () => {
    const verified = await env.account();
    const { writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    const a = await writer.add({ serviceName: 'Alpha', username: 'a', password: '1' });
    passed(await sync.catchUp());
    const earlier = env.proxy.lastAnswer('GET', `${changesPath}?since=0`) as { data: VaultChangesWire };
    await writer.edit(a, { serviceName: 'Alpha', username: 'a', password: 'rotated' });
    const current = passed(await sync.catchUp()).mirror;
    // The lie: the whole earlier vault, as a reset then a full read.
    env.proxy.rewrite({
      path: changesPath,
      rewrite: ({ requestBody: _ignored, path }) =>
        path.endsWith('since=0') ? earlier : { message: 'Success', data: { reset: true, cursor: 1, reason: 'behind-floor' } },
    });
    expect(refused(await sync.catchUp()).kind).toBe('older');
    expect(sync.mirror).toBe(current);
  });

  it('follows live notices: a burst of writes elsewhere costs a few catch-ups, and ends in the checked vault', async () => {
    const verified = await env.account();
    const { device, writer, sync } = await syncingDevice(verified, env.proxy.url);
    await writer.protect();
    passed(await sync.catchUp());
    const results: Array<CaughtUp | CatchUpRefused> = [];
    let caughtUp = () => {};
    // The stream straight from the server (the proxy buffers whole answers); catch-ups through the proxy.
    const live = liveChanges({
      open: eventSourceOf(device.cookies),
      url: `${env.server.url}${apiPaths.vaultEvents}`,
      coalesceMs: 250,
      catchUp: async () => {
        const result = await sync.catchUp();
        results.push(result);
        caughtUp();
        return result;
      },
    });
    const settle = (count: number) =>
      new Promise<void>((resolve) => {
        caughtUp = () => {
          if (sync.mirror.entries.size >= count) resolve();
        };
        caughtUp();
      });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the `ready` catch-up
    const before = changeRequests();
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) ids.push(await writer.add({ serviceName: `Site ${i}`, username: 'u', password: `${i}` }));
    await settle(8);
    live.close();
    expect([...sync.mirror.entries.keys()].sort()).toEqual(ids.sort());
    expect(results.every((result) => result.ok)).toBe(true);
    const requests = changeRequests() - before;
    // Eight notices; each catch-up request answers every change before it.
    expect(requests).toBeGreaterThanOrEqual(1);
    expect(requests).toBeLessThan(8);
  });
});
