import { apiPaths, parseVaultState } from '@lockit/contract';
import type { VerifiedAccount } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  EntryConflictResolution,
  endOtherSessions,
  listSessions,
  logOut,
  openDraft,
  openEntryHistory,
  purgeExpiredTrash,
  signIn,
} from '../src';
import { coreDevice, databaseKind } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';
import { coreVaultOf, loginDraft, type CoreVault } from './support/core-vault';

const env = useCoreServer();

/** One account for the writes (each account costs the server two Argon2id hashes). */
let shared: Promise<VerifiedAccount> | undefined;

/** Two fresh clients of the file's account (its session, each with its own memory), both checked. */
async function twoClients(): Promise<[CoreVault, CoreVault]> {
  shared ??= env.account();
  const verified = await shared;
  const a = await coreVaultOf(verified, env.server.url);
  const b = await coreVaultOf(verified, env.server.url);
  await a.check();
  await b.check();
  accounts.set(a, verified);
  return [a, b];
}
const accounts = new Map<CoreVault, VerifiedAccount>();

async function stateCounter(client: CoreVault): Promise<number> {
  const answer = await client.api.call('get-vault-state', {});
  return parseVaultState(answer.data.state ?? '')?.counter ?? 0;
}

/** A third client with a fresh memory checks the vault as served: null when it passes. */
async function freshCheck(client: CoreVault): Promise<unknown> {
  const verifier = await coreVaultOf(accounts.get(client)!, env.server.url);
  await verifier.check();
  return verifier.integrity.report;
}

const saved = <R extends { kind: string }>(result: R): Extract<R, { kind: 'saved' }> => {
  if (result.kind !== 'saved') throw new Error(`expected a saved result, got ${result.kind}`);
  return result as Extract<R, { kind: 'saved' }>;
};

describe(`the client core's vault writes against the real server (${databaseKind})`, () => {
  it('adds and edits an entry: only ciphertexts travel, each write carries the next vault state', async () => {
    const [a] = await twoClients();
    const counter = await stateCounter(a);
    expect(counter).toBeGreaterThan(0);
    const added = await a.entries.add(loginDraft({ serviceName: 'Birch Bank', username: 'ada', password: 'b1rch!' }));
    expect(added.wire).toMatchObject({ id: added.id, revision: 1 });
    expect(await stateCounter(a)).toBe(counter + 1);
    expect(JSON.stringify(added.wire)).not.toContain('b1rch!');

    const edited = saved(await a.entries.update(added.id, 1, loginDraft({ serviceName: 'Birch Bank', password: 'n3w!' })));
    expect(edited.wire.revision).toBe(2);
    expect(await stateCounter(a)).toBe(counter + 2);
    const served = await a.served(added.id);
    expect((await openDraft(a.vaultKey, served)).password).toBe('n3w!');
    expect(await freshCheck(a)).toBeNull();
  });

  it('moves an entry to a folder as an edit on its revision', async () => {
    const [a] = await twoClients();
    const folder = await a.folders.add('Work/Banking');
    if (folder.kind !== 'saved') throw new Error(folder.kind);
    const { id } = await a.entries.add(loginDraft({ serviceName: 'Payroll' }));
    saved(await a.entries.update(id, 1, loginDraft({ serviceName: 'Payroll', folderId: folder.folder.id })));
    expect((await a.served(id)).folderId).toBe(folder.folder.id);
    expect(await freshCheck(a)).toBeNull();
  });

  it('two clients edit one entry: the second gets a conflict with the current version, and nothing is lost', async () => {
    const [a, b] = await twoClients();
    const { id } = await a.entries.add(loginDraft({ serviceName: 'Mail', password: 'first' }));
    saved(await a.entries.update(id, 1, loginDraft({ serviceName: 'Mail', password: 'from A' })));

    // B still holds revision 1: its vault state is stale too, so it checks again before the conflict.
    const mine = loginDraft({ serviceName: 'Mail', password: 'from B' });
    const conflict = await b.entries.update(id, 1, mine);
    if (conflict.kind !== 'conflict') throw new Error('expected a conflict');
    expect(conflict.current.revision).toBe(2);
    const theirs = await openDraft(b.vaultKey, (await b.served(id)) as never);
    expect(theirs.password).toBe('from A');
    expect((await b.served(id)).revision).toBe(2);

    // "Use theirs": mine is saved first, theirs put back on top: both in the history.
    const resolution = new EntryConflictResolution(b.entries, {
      kind: 'save',
      id,
      mine,
      theirsRevision: conflict.current.revision,
      theirsDraft: theirs,
    });
    const outcome = await resolution.choose({ kind: 'theirs' });
    expect(outcome.kind).toBe('saved');
    const current = await b.served(id);
    expect((await openDraft(b.vaultKey, current)).password).toBe('from A');
    const history = await openEntryHistory(b.api, b.vaultKey, id);
    expect(history.map((version) => version.draft?.password)).toEqual(['from B', 'from A', 'first']);
    expect(await freshCheck(a)).toBeNull();
  });

  it('"keep mine" and "merge" settle a conflict on the newer revision', async () => {
    const [a, b] = await twoClients();
    const { id } = await a.entries.add(loginDraft({ serviceName: 'Shop', username: 'old', password: 'p0' }));
    saved(await a.entries.update(id, 1, loginDraft({ serviceName: 'Shop', username: 'ada', password: 'pA' })));
    const mine = loginDraft({ serviceName: 'Shop', username: 'old', password: 'pB' });
    const first = await b.entries.update(id, 1, mine);
    if (first.kind !== 'conflict') throw new Error('expected a conflict');
    const theirsDraft = await openDraft(b.vaultKey, await b.served(id));
    const sides = { kind: 'save' as const, id, mine, theirsRevision: 2, theirsDraft };
    const merged = await new EntryConflictResolution(b.entries, sides).choose({
      kind: 'merge',
      draft: { ...mine, username: theirsDraft.username },
    });
    expect(merged).toMatchObject({ kind: 'saved', wire: { revision: 3 } });
    expect(await openDraft(b.vaultKey, await b.served(id))).toMatchObject({ username: 'ada', password: 'pB' });

    // A, still at revision 2, keeps its own on top of B's merge.
    const again = await a.entries.update(id, 2, loginDraft({ serviceName: 'Shop', password: 'pA2' }));
    if (again.kind !== 'conflict') throw new Error('expected a conflict');
    const kept = await new EntryConflictResolution(a.entries, {
      kind: 'save',
      id,
      mine: loginDraft({ serviceName: 'Shop', password: 'pA2' }),
      theirsRevision: again.current.revision,
      theirsDraft: await openDraft(a.vaultKey, await a.served(id)),
    }).choose({ kind: 'mine' });
    expect(kept).toMatchObject({ kind: 'saved', wire: { revision: 4 } });
    expect((await openDraft(a.vaultKey, await a.served(id))).password).toBe('pA2');
    const passwords = (await openEntryHistory(a.api, a.vaultKey, id)).map((version) => version.draft?.password);
    expect(passwords).toEqual(['pB', 'pA', 'p0']);
    expect(await freshCheck(a)).toBeNull();
  });

  it('trash, restore and purge: each on its revision, Trash in the sealed state, a stale one a conflict', async () => {
    const [a, b] = await twoClients();
    const { id } = await a.entries.add(loginDraft({ serviceName: 'Old forum', password: 'v1' }));
    saved(await a.entries.update(id, 1, loginDraft({ serviceName: 'Old forum', password: 'v2' })));
    // B moves it to Trash on the revision it saw: the server holds a newer one, which B is shown.
    const stale = await b.entries.trash(id, 1);
    if (stale.kind !== 'conflict') throw new Error('expected a conflict');
    expect(stale.current).toMatchObject({ revision: 2, deletedAt: null });
    const resolution = new EntryConflictResolution(b.entries, {
      kind: 'delete',
      id,
      mine: null,
      theirsRevision: 2,
      theirsDraft: await openDraft(b.vaultKey, await b.served(id)),
    });
    expect(await resolution.choose({ kind: 'theirs' })).toEqual({ kind: 'kept' });
    const counts = async () => parseVaultState((await a.api.call('get-vault-state', {})).data.state!)!;
    const before = await counts();
    const trashed = saved(await resolution.choose({ kind: 'mine' }));
    expect(trashed.wire).toMatchObject({ revision: 3, deletedAt: expect.any(String) });
    expect(await counts()).toMatchObject({
      trashed: before.trashed! + 1,
      entries: before.entries - 1,
    });
    expect(await freshCheck(a)).toBeNull();

    const restored = saved(await a.entries.restore(id, 3));
    expect(restored.wire).toMatchObject({ revision: 4, deletedAt: null });
    // Purging a live entry is refused (the set this client tracks has it live), and changes nothing.
    const counter = await stateCounter(a);
    await expect(a.entries.purge(id, 4)).rejects.toThrow('The vault changed elsewhere');
    expect(await stateCounter(a)).toBe(counter);
    expect((await a.served(id)).revision).toBe(4);
    saved(await a.entries.trash(id, 4));
    expect(await a.entries.purge(id, 5)).toEqual({ kind: 'purged' });
    const list = await a.api.call('list-entries', {});
    expect(list.data.map((entry) => entry.id)).not.toContain(id);
    expect(await freshCheck(a)).toBeNull();
  });

  it('purges what outlived the Trash term, never sooner than the floor whatever the server says', async () => {
    const [a] = await twoClients();
    const { id } = await a.entries.add(loginDraft({ serviceName: 'Expired' }));
    saved(await a.entries.trash(id, 1));
    const removed: string[] = [];
    const day = 24 * 60 * 60 * 1000;
    const platform = { api: a.api, integrity: a.integrity, servedRetentionDays: async () => 1 };
    expect(await purgeExpiredTrash(platform, (gone) => removed.push(gone), Date.now() + 29 * day)).toBe(0);
    expect(await purgeExpiredTrash(platform, (gone) => removed.push(gone), Date.now() + 31 * day)).toBe(1);
    expect(removed).toEqual([id]);
    expect((await a.api.call('list-entries', {})).data.map((entry) => entry.id)).not.toContain(id);
    expect(await freshCheck(a)).toBeNull();
  });

  it('folders: add, rename, a stale rename is a conflict with the current name, a bad name sends nothing, delete', async () => {
    const [a, b] = await twoClients();
    expect(await a.folders.add(' / ')).toMatchObject({ kind: 'invalid' });
    const added = await a.folders.add(' Work ');
    if (added.kind !== 'saved') throw new Error(added.kind);
    expect(added.folder).toMatchObject({ name: 'Work', revision: 1 });
    const renamed = await a.folders.rename(added.folder, 'Office');
    expect(renamed).toMatchObject({ kind: 'saved', folder: { name: 'Office', revision: 2 } });
    const stale = await b.folders.rename(added.folder, 'Job');
    expect(stale).toMatchObject({ kind: 'conflict', opened: { name: 'Office', revision: 2 } });
    expect(await b.folders.delete({ ...added.folder, revision: 2 })).toEqual({ kind: 'deleted' });
    expect((await a.api.call('list-folders', {})).data.map((folder) => folder.id)).not.toContain(added.folder.id);
    expect(await freshCheck(a)).toBeNull();
  });

  it('reads an entry’s history newest first, each version opened', async () => {
    const [a] = await twoClients();
    const { id } = await a.entries.add(loginDraft({ serviceName: 'Router', password: 'one' }));
    saved(await a.entries.update(id, 1, loginDraft({ serviceName: 'Router', password: 'two' })));
    saved(await a.entries.update(id, 2, loginDraft({ serviceName: 'Router', password: 'three' })));
    const history = await openEntryHistory(a.api, a.vaultKey, id);
    expect(history.map((version) => [version.revision, version.draft?.password])).toEqual([
      [2, 'two'],
      [1, 'one'],
    ]);
  });
});

describe(`the client core's sessions (${databaseKind})`, () => {
  it('lists this device’s sessions, ends the others, and logs out', async () => {
    const { account, client } = await env.account();
    const device = coreDevice(env.server.url);
    const signedIn = await signIn(device.platform, account.username, account.password);
    expect(signedIn.kind).toBe('signed-in');
    const sessions = await listSessions(device.platform.api);
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect(await endOtherSessions(device.platform.api)).toBe(1);
    expect((await client.get(apiPaths.profile)).status).toBe(401);
    expect(await logOut(device.platform.api)).toBeTruthy();
    const after = await listSessions(device.platform.api).catch((error: unknown) => error);
    expect((after as ApiError).status).toBe(401);
  });
});
