import type { VerifiedAccount } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import {
  EntryConflictResolution,
  EntryWriteQueue,
  MemoryPendingWriteStore,
  openDraft,
  openEntryHistory,
  QueuedEntryWrites,
  readPendingWrites,
  type PendingWriteStore,
} from '../src';
import { databaseKind } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';
import { coreVaultOf, loginDraft, type CoreVault } from './support/core-vault';

const env = useCoreServer();

/** Nothing listens here: every call gets no answer at all, as with the server down. */
const UNREACHABLE = 'http://127.0.0.1:9';

let shared: Promise<VerifiedAccount> | undefined;
const account = () => (shared ??= env.account());

/** The account's client with the server reachable, its vault checked. */
async function online(): Promise<CoreVault> {
  const client = await coreVaultOf(await account(), env.server.url);
  await client.check();
  return client;
}

/** Queued writes of `client` over `store`. */
function queuedWrites(client: CoreVault, store: PendingWriteStore): QueuedEntryWrites {
  return new QueuedEntryWrites(client.entries, new EntryWriteQueue({ store, account: client.account }), client.vaultKey);
}

describe(`the client core's queue of offline writes against the real server (${databaseKind})`, () => {
  it('queues an add, an edit, a delete and a restore sealed while unreachable, and sends them when the server answers', async () => {
    const a = await online();
    const elm = await a.entries.add(loginDraft({ serviceName: 'Elm Bank', username: 'ada', password: 'elm-1' }));
    const ash = await a.entries.add(loginDraft({ serviceName: 'Ash Mail', password: 'ash-1' }));
    const yew = await a.entries.add(loginDraft({ serviceName: 'Yew Shop', password: 'yew-1' }));
    expect((await a.entries.trash(yew.id, 1)).kind).toBe('saved');

    const store = new MemoryPendingWriteStore();
    const away = queuedWrites(await coreVaultOf(await account(), UNREACHABLE), store);
    const added = await away.add(loginDraft({ serviceName: 'Oak Offline', password: 'oak-secret' }));
    expect(added.kind).toBe('queued');
    // An edit of an entry whose add waits replaces the add's content: one write per entry.
    expect((await away.update(added.id, 1, loginDraft({ serviceName: 'Oak Offline', password: 'oak-secret-2' }))).kind).toBe(
      'queued',
    );
    expect((await away.update(elm.id, 1, loginDraft({ serviceName: 'Elm Bank', password: 'elm-offline' }))).kind).toBe('queued');
    expect((await away.trash(ash.id, 1)).kind).toBe('queued');
    expect((await away.restore(yew.id, 2)).kind).toBe('queued');
    expect(await away.queue.list()).toHaveLength(4);

    const back = queuedWrites(await online(), store);
    const report = await back.replay();
    expect(report).toMatchObject({ stopped: null, left: 0 });
    expect(report.outcomes.map((outcome) => outcome.kind)).toEqual(['saved', 'saved', 'saved', 'saved']);
    expect(await back.queue.list()).toEqual([]);

    const b = await online();
    expect((await openDraft(b.vaultKey, await b.served(added.id))).password).toBe('oak-secret-2');
    const elmServed = await b.served(elm.id);
    expect(elmServed.revision).toBe(2);
    expect((await openDraft(b.vaultKey, elmServed)).password).toBe('elm-offline');
    expect((await b.served(ash.id)).deletedAt).not.toBeNull();
    expect((await b.served(yew.id)).deletedAt).toBeNull();
    // Every replayed write carried the next vault state: a fresh client's check passes.
    expect(b.integrity.report).toBeNull();
    expect(b.integrity.checked).toBe(true);
  });

  it('keeps queued writes sealed: no plaintext in the store, and a plaintext record is never read back', async () => {
    const store = new MemoryPendingWriteStore();
    const away = queuedWrites(await coreVaultOf(await account(), UNREACHABLE), store);
    await away.add(
      loginDraft({ serviceName: 'Sealed Bank', username: 'ada.sealed', password: 'sealed-secret', notes: 'pin 4321' }),
    );
    const stored = await store.list(away.queue.account);
    const text = JSON.stringify(stored);
    for (const plain of ['Sealed Bank', 'ada.sealed', 'sealed-secret', 'pin 4321']) expect(text).not.toContain(plain);
    const [write] = stored as { sealed: Record<string, string | null> }[];
    for (const field of ['serviceName', 'username', 'password', 'notes', 'overview'])
      expect(write!.sealed[field]).toMatch(/^v\d+\.[\w-]+\.[\w-]+$/);

    // A record holding a plaintext field (a damaged store, another program) is left out.
    const [queued] = await away.queue.list();
    if (queued?.kind !== 'add') throw new Error('expected the queued add');
    await store.put({ ...queued, seq: 99, sealed: { ...queued.sealed, serviceName: 'Sealed Bank' } });
    expect(await readPendingWrites(store, away.queue.account)).toHaveLength(1);
  });

  it('reports a conflict on replay without overwriting the newer version, keeps the write queued, and both stay reachable', async () => {
    const a = await online();
    const pine = await a.entries.add(loginDraft({ serviceName: 'Pine Bank', password: 'pine-1' }));
    const store = new MemoryPendingWriteStore();
    const away = queuedWrites(await coreVaultOf(await account(), UNREACHABLE), store);
    await away.update(pine.id, 1, loginDraft({ serviceName: 'Pine Bank', password: 'mine-offline' }));
    // Meanwhile another device saves its own version.
    expect((await a.entries.update(pine.id, 1, loginDraft({ serviceName: 'Pine Bank', password: 'theirs-online' }))).kind).toBe(
      'saved',
    );

    const b = await online();
    const back = queuedWrites(b, store);
    const report = await back.replay();
    expect(report.left).toBe(1);
    const [outcome] = report.outcomes;
    if (outcome?.kind !== 'conflict') throw new Error(`expected a conflict, got ${outcome?.kind}`);
    expect(outcome.current.revision).toBe(2);
    expect(outcome.mine?.password).toBe('mine-offline');
    expect((await openDraft(b.vaultKey, await b.served(pine.id))).password).toBe('theirs-online');
    // Still queued until settled; a conflict being shown is not sent again.
    expect(await back.queue.list()).toHaveLength(1);
    expect((await back.replay(new Set([pine.id]))).outcomes).toEqual([]);

    // The person keeps theirs: mine goes to the history first, then the queue lets the write go.
    const theirsDraft = await openDraft(b.vaultKey, await b.served(pine.id));
    const resolution = new EntryConflictResolution(b.entries, {
      kind: 'save',
      id: pine.id,
      mine: outcome.mine,
      theirsRevision: 2,
      theirsDraft,
    });
    expect((await resolution.choose({ kind: 'theirs' })).kind).toBe('saved');
    await back.queue.drop(outcome.write);
    const history = await openEntryHistory(b.api, b.vaultKey, pine.id);
    expect(history.map((version) => version.draft?.password)).toContain('mine-offline');
    expect((await openDraft(b.vaultKey, await b.served(pine.id))).password).toBe('theirs-online');
    expect(await back.queue.list()).toEqual([]);
  });
});
