import { describe, expect, it } from 'vitest';
import { apiPaths, VAULT_STATE_HEADER, vaultStateResponseSchema } from '@lockit/contract';
import { createRepositories } from '../src/db/repositories/index';
import { toEntryWire } from '../src/routes/entries/entry-wire';
import { buildListSnapshot } from '../src/vault/vault-list-snapshot';
import { signedInUser } from './helpers/accounts';
import { snapshotDatabase } from './helpers/db-snapshot';
import { encryptEntry } from './helpers/entries';
import { newFolder } from './helpers/folders';
import { useTestApp } from './helpers/test-app';
import { storedVaultState, vaultStateOf, withState } from './helpers/vault-state';

/**
 * GET and PUT /api/vault/state, and the state the list and folder answers carry (decision
 * 0053): always the one stored with the vault their body shows, and only the caller's.
 */
const h = useTestApp();
const plain = { serviceName: 'GitHub', username: 'octo', password: 'hunter2' };

describe('GET and PUT /api/vault/state', () => {
  it('answers null for a vault without a state, then stores the first one (counter 1) once', async () => {
    const { account, client } = await signedInUser(h);
    const { vaultRevision } = await storedVaultState(h.db, account.username);
    const none = await client.get(apiPaths.vaultState);
    expect(vaultStateResponseSchema.parse(none.json())).toEqual({ message: 'Success', data: { state: null, vaultRevision } });

    const first = vaultStateOf(1, 2, 1);
    const put = await client.put(apiPaths.vaultState, { state: first });
    expect(put.statusCode).toBe(200);
    // The revision moves with it: a list cached without a state is not served again.
    const saved = { state: first, vaultRevision: vaultRevision + 1 };
    expect(vaultStateResponseSchema.parse(put.json())).toEqual({ message: 'Vault state saved', data: saved });
    expect((await client.get(apiPaths.vaultState)).json()).toEqual({ message: 'Success', data: saved });

    const before = await snapshotDatabase(h.db);
    for (const state of [vaultStateOf(1), vaultStateOf(2)]) {
      const again = await client.put(apiPaths.vaultState, { state });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        message: 'Your vault was changed elsewhere since this change was made. Reload and try again.',
        code: 'vault-state-stale',
        state: first,
      });
    }
    expect(await snapshotDatabase(h.db)).toEqual(before);
  });

  it('refuses a first state whose counter is not 1, and bad bodies, with clear answers and nothing stored', async () => {
    const { client } = await signedInUser(h);
    const before = await snapshotDatabase(h.db);
    const later = await client.put(apiPaths.vaultState, { state: vaultStateOf(5) });
    expect(later.statusCode).toBe(409);
    expect(later.json()).toMatchObject({ code: 'vault-state-stale', state: null });
    const cases: Array<[unknown, string]> = [
      [{}, 'state must be a vault state'],
      [{ state: 7 }, 'state must be a vault state'],
      [{ state: 'v1.1.0.0' }, 'state must be a vault state: v1.<counter>.<entries>.<folders>.<sum>.<tag>'],
      [
        { state: vaultStateOf(1).replace(/\.[^.]+$/, '.short') },
        'state must be a vault state: v1.<counter>.<entries>.<folders>.<sum>.<tag>',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await client.put(apiPaths.vaultState, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    expect(await snapshotDatabase(h.db)).toEqual(before);
  });

  it('needs a session, and shows each account only its own state', async () => {
    expect((await h.client().get(apiPaths.vaultState)).statusCode).toBe(401);
    expect((await h.client().put(apiPaths.vaultState, { state: vaultStateOf(1) })).statusCode).toBe(401);
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    expect((await alice.client.put(apiPaths.vaultState, { state: vaultStateOf(1) })).statusCode).toBe(200);
    expect((await bob.client.get(apiPaths.vaultState)).json().data.state).toBeNull();
    for (const path of [apiPaths.listEntries, apiPaths.folders]) {
      expect((await bob.client.get(path)).headers[VAULT_STATE_HEADER]).toBeUndefined();
    }
  });
});

describe('the state on the list and folder answers', () => {
  it('is absent without a state, then is the stored one, and follows every write', async () => {
    const { account, client } = await signedInUser(h);
    const header = async (path: string) => (await client.get(path)).headers[VAULT_STATE_HEADER];
    expect(await header(apiPaths.listEntries)).toBeUndefined(); // now cached for this revision
    expect(await header(apiPaths.folders)).toBeUndefined();
    const first = vaultStateOf(1);
    await client.put(apiPaths.vaultState, { state: first });
    expect(await header(apiPaths.listEntries)).toBe(first);
    expect(await header(apiPaths.folders)).toBe(first);

    const second = vaultStateOf(2, 1, 0);
    expect((await client.post(apiPaths.addEntry, await encryptEntry(account, plain), withState(second))).statusCode).toBe(201);
    const listed = await client.get(apiPaths.listEntries);
    expect(listed.headers[VAULT_STATE_HEADER]).toBe(second);
    expect(listed.json().data).toHaveLength(1);
    expect(await header(apiPaths.folders)).toBe(second);
  });

  it('gives a new ETag when only the state changed (a folder write), and a 304 carries the current state', async () => {
    const { account, client } = await signedInUser(h);
    await client.put(apiPaths.vaultState, { state: vaultStateOf(1) });
    const before = await client.get(apiPaths.listEntries);
    const second = vaultStateOf(2, 0, 1);
    expect((await client.post(apiPaths.folders, await newFolder(account, 'Work'), withState(second))).statusCode).toBe(201);

    const after = await client.get(apiPaths.listEntries, { headers: { 'if-none-match': String(before.headers.etag) } });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(before.body); // the entries are the same bytes...
    expect(after.headers.etag).not.toBe(before.headers.etag); // ...but not the same answer
    expect(after.headers[VAULT_STATE_HEADER]).toBe(second);

    const unchanged = await client.get(apiPaths.listEntries, { headers: { 'if-none-match': String(after.headers.etag) } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.headers[VAULT_STATE_HEADER]).toBe(second);
  });

  it('is never an older state than the body: a write landing while the list is read makes it read again', async () => {
    const { account, client } = await signedInUser(h);
    await client.put(apiPaths.vaultState, { state: vaultStateOf(1) });
    const { id: userId } = await h.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', account.username)
      .executeTakeFirstOrThrow();
    const repos = createRepositories(h.db);
    const landed = vaultStateOf(2, 1, 0);
    const entry = await encryptEntry(account, plain);
    let writes = 0;
    const built = await buildListSnapshot(
      'Success',
      {
        userId,
        vaultState: repos.vaultState,
        // Another device's write commits after the state was read and before the entries are.
        async page(after, limit) {
          if (writes++ === 0) expect((await client.post(apiPaths.addEntry, entry, withState(landed))).statusCode).toBe(201);
          return repos.entries.listPageByUser(userId, after, limit);
        },
      },
      toEntryWire,
    );
    expect(writes).toBe(2);
    expect(built.vaultState).toBe(landed);
    expect(JSON.parse(built.body.toString()).data.map((row: { id: string }) => row.id)).toEqual([entry.id]);
  });
});
