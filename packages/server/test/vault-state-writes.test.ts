import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths, VAULT_STATE_HEADER, vaultStateErrorSchema } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { snapshotDatabase } from './helpers/db-snapshot';
import { encryptEntry } from './helpers/entries';
import { newFolder } from './helpers/folders';
import type { RequestOptions } from './helpers/inject-client';
import { useTestApp } from './helpers/test-app';
import { storedVaultState, vaultStateOf, withState } from './helpers/vault-state';

/**
 * Every write that changes the live set (decision 0053) checks the vault state header in its
 * own transaction: the next state is stored with the write; a stale, missing (once the vault
 * has a state) or malformed one refuses the write and leaves the database as it was.
 */
const h = useTestApp();

type Tester = Awaited<ReturnType<typeof tester>>;

async function tester() {
  const { account, client } = await signedInUser(h);
  let counter = 0;
  return {
    account,
    client,
    /** What a current browser sends with its next write: the next state, once the vault has one. */
    next(): RequestOptions {
      return counter === 0 ? {} : withState(vaultStateOf(++counter));
    },
    /** Gives the vault its first state, as a browser opening it does. */
    async protect(): Promise<string> {
      const state = vaultStateOf(1);
      expect((await client.put(apiPaths.vaultState, { state })).statusCode).toBe(200);
      counter = 1;
      return state;
    },
  };
}

const plain = { serviceName: 'GitHub', username: 'octo', password: 'hunter2' };

async function addEntry(t: Tester): Promise<string> {
  const body = await encryptEntry(t.account, plain);
  expect((await t.client.post(apiPaths.addEntry, body, t.next())).statusCode).toBe(201);
  return body.id;
}

async function addFolder(t: Tester): Promise<string> {
  const body = await newFolder(t.account, 'Work');
  expect((await t.client.post(apiPaths.folders, body, t.next())).statusCode).toBe(201);
  return body.id;
}

interface WriteCase {
  name: string;
  /** Makes what the write acts on (its own writes carry the next state, as a browser's do). */
  prepare(t: Tester): Promise<string>;
  send(t: Tester, target: string, options: RequestOptions): Promise<LightMyRequestResponse>;
  status: number;
}

const cases: WriteCase[] = [
  {
    name: 'add entry',
    prepare: async () => '',
    send: async (t, _, options) => t.client.post(apiPaths.addEntry, await encryptEntry(t.account, plain), options),
    status: 201,
  },
  {
    name: 'update entry',
    prepare: addEntry,
    send: async (t, id, options) =>
      t.client.put(
        apiPaths.updateEntry(id),
        { ...(await encryptEntry(t.account, { ...plain, password: 'new' }, id)), revision: 1 },
        options,
      ),
    status: 200,
  },
  {
    name: 'move entry to Trash',
    prepare: addEntry,
    send: (t, id, options) => t.client.delete(`${apiPaths.deleteEntry(id)}?revision=1`, options),
    status: 200,
  },
  {
    name: 'restore entry',
    prepare: async (t) => {
      const id = await addEntry(t);
      expect((await t.client.delete(`${apiPaths.deleteEntry(id)}?revision=1`, t.next())).statusCode).toBe(200);
      return id;
    },
    send: (t, id, options) => t.client.post(apiPaths.restoreEntry(id), { revision: 2 }, options),
    status: 200,
  },
  {
    name: 'import batch',
    prepare: async () => '',
    send: async (t, _, options) =>
      t.client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries: [await encryptEntry(t.account, plain)] }, options),
    status: 201,
  },
  {
    name: 'undo import batch',
    prepare: async (t) => {
      const batchId = randomUUID();
      const body = { batchId, entries: [await encryptEntry(t.account, plain)] };
      expect((await t.client.post(apiPaths.entryBatch, body, t.next())).statusCode).toBe(201);
      return batchId;
    },
    send: (t, batchId, options) => t.client.delete(apiPaths.entryBatchUndo(batchId), options),
    status: 200,
  },
  {
    name: 'add folder',
    prepare: async () => '',
    send: async (t, _, options) => t.client.post(apiPaths.folders, await newFolder(t.account, 'Home'), options),
    status: 201,
  },
  {
    name: 'rename folder',
    prepare: addFolder,
    send: async (t, id, options) =>
      t.client.put(apiPaths.folder(id), { name: (await newFolder(t.account, 'Renamed', id)).name, revision: 1 }, options),
    status: 200,
  },
  {
    name: 'delete folder',
    prepare: addFolder,
    send: (t, id, options) => t.client.delete(`${apiPaths.folder(id)}?revision=1`, options),
    status: 200,
  },
];

describe.each(cases)('$name and the vault state', (write) => {
  it('works as before without a header while the vault has no state, and leaves it without one', async () => {
    const t = await tester();
    const target = await write.prepare(t);
    const before = await storedVaultState(h.db, t.account.username);
    expect((await write.send(t, target, {})).statusCode).toBe(write.status);
    expect(await storedVaultState(h.db, t.account.username)).toEqual({
      state: null,
      counter: 0,
      vaultRevision: before.vaultRevision + 1,
    });
  });

  it('refuses a stale, a missing and a malformed state and changes nothing; applies the next one and stores it', async () => {
    const t = await tester();
    const target = await write.prepare(t);
    const first = await t.protect();
    const before = await snapshotDatabase(h.db);

    for (const counter of [1, 3]) {
      const stale = await write.send(t, target, withState(vaultStateOf(counter)));
      expect(stale.statusCode).toBe(409);
      expect(vaultStateErrorSchema.strict().parse(stale.json())).toEqual({
        message: 'Your vault was changed elsewhere since this change was made. Reload and try again.',
        code: 'vault-state-stale',
        state: first,
      });
    }
    const missing = await write.send(t, target, {});
    expect(missing.statusCode).toBe(428);
    expect(missing.json()).toEqual({
      message: 'This vault is protected by an integrity check: reload Lockit and try again.',
      code: 'vault-state-required',
      state: first,
    });
    for (const bad of ['v1.2', vaultStateOf(2).replace('v1.', 'v2.'), `${vaultStateOf(2)}x`, 'v1.0.0.0.a.b']) {
      const malformed = await write.send(t, target, withState(bad));
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toBe(
        `${VAULT_STATE_HEADER} must be a vault state: v1.<counter>.<entries>.<folders>.<sum>.<tag>`,
      );
    }
    expect(await snapshotDatabase(h.db)).toEqual(before);

    const next = vaultStateOf(2, 1, 1);
    const { vaultRevision } = await storedVaultState(h.db, t.account.username);
    expect((await write.send(t, target, withState(next))).statusCode).toBe(write.status);
    expect(await storedVaultState(h.db, t.account.username)).toEqual({
      state: next,
      counter: 2,
      vaultRevision: vaultRevision + 1,
    });
  });
});

describe('the vault state against other refusals and other writers', () => {
  it("answers an entry's own revision conflict first (409 with the entry), even when the state is stale too", async () => {
    const t = await tester();
    const id = await addEntry(t);
    const first = await t.protect();
    const before = await snapshotDatabase(h.db);
    const body = { ...(await encryptEntry(t.account, plain, id)), revision: 7 };
    for (const options of [withState(vaultStateOf(1)), {}]) {
      const response = await t.client.put(apiPaths.updateEntry(id), body, options);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        message: 'This password was changed elsewhere. Reload and try again.',
        data: { id },
      });
      expect(response.json().code).toBeUndefined();
    }
    expect(await snapshotDatabase(h.db)).toEqual(before);
    expect((await storedVaultState(h.db, t.account.username)).state).toBe(first);
  });

  it('lets exactly one of two writes from the same state through; the other gets 409 and stores nothing', async () => {
    const t = await tester();
    await t.protect();
    for (let counter = 2; counter < 7; counter += 1) {
      const [one, two] = [vaultStateOf(counter), vaultStateOf(counter)];
      const entry = await encryptEntry(t.account, plain);
      const folder = await newFolder(t.account, 'Racing');
      const [a, b] = await Promise.all([
        t.client.post(apiPaths.addEntry, entry, withState(one)),
        t.client.post(apiPaths.folders, folder, withState(two)),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
      const winner = a.statusCode === 201 ? one : two;
      expect((a.statusCode === 201 ? b : a).json()).toMatchObject({ code: 'vault-state-stale', state: winner });
      expect(await storedVaultState(h.db, t.account.username)).toMatchObject({ state: winner, counter });
      const entries = await h.db.selectFrom('entries').select('id').where('id', '=', entry.id).execute();
      const folders = await h.db.selectFrom('folders').select('id').where('id', '=', folder.id).execute();
      expect(entries.length + folders.length).toBe(1);
    }
  });

  it("never reads or moves another account's state: each vault counts on its own", async () => {
    const alice = await tester();
    const bob = await tester();
    await alice.protect();
    const aliceBefore = await storedVaultState(h.db, alice.account.username);
    // Bob's vault has no state: his plain write works, and a state counting from Alice's is refused.
    expect((await bob.client.post(apiPaths.addEntry, await encryptEntry(bob.account, plain))).statusCode).toBe(201);
    const refused = await bob.client.post(apiPaths.addEntry, await encryptEntry(bob.account, plain), withState(vaultStateOf(2)));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'vault-state-stale', state: null });
    expect(await storedVaultState(h.db, alice.account.username)).toEqual(aliceBefore);
  });
});
