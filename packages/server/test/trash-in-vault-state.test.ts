import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiPaths, publicConfigResponseSchema, TRASHED_AT_HEADER } from '@lockit/contract';
import { createRepositories } from '../src/db/repositories/index';
import { purgeExpiredTrash } from '../src/vault/trash-purge';
import { signedInUser } from './helpers/accounts';
import { snapshotDatabase } from './helpers/db-snapshot';
import { encryptEntry } from './helpers/entries';
import { useTestApp } from './helpers/test-app';
import { storedVaultState, vaultStateOf, vaultStateV2Of, withState } from './helpers/vault-state';

/**
 * Trash inside the whole-vault integrity set (decision 0061): the server stores the trash time
 * the browser sealed, takes the state with every purge, never purges a vault whose Trash is in
 * a state it cannot update, and never lets a version 1 state replace a version 2 one.
 */
const RETENTION_DAYS = 7;
const DAY = 24 * 60 * 60 * 1000;
const h = useTestApp({ config: { trashRetentionDays: RETENTION_DAYS } });

const plain = { serviceName: 'GitHub', username: 'octo', password: 'hunter2' };
const TRASHED_AT = Date.UTC(2026, 10, 20, 8, 30, 15, 123);

async function userWithEntry() {
  const user = await signedInUser(h);
  const body = await encryptEntry(user.account, plain);
  expect((await user.client.post(apiPaths.addEntry, body)).statusCode).toBe(201);
  return { ...user, id: body.id as string };
}

const entryRows = (id: string) => h.db.selectFrom('entries').select(['id', 'deleted_at']).where('id', '=', id).execute();

describe('Trash in the vault state', () => {
  it('stores the trash time a move to Trash names as the entry’s deletedAt, to the millisecond, and serves it back', async () => {
    const { client, id } = await userWithEntry();
    const moved = await client.delete(`${apiPaths.deleteEntry(id)}?revision=1`, {
      headers: { [TRASHED_AT_HEADER]: String(TRASHED_AT) },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.deletedAt).toBe(new Date(TRASHED_AT).toISOString());
    const listed = (await client.get(apiPaths.listEntries)).json().data as Array<{ id: string; deletedAt: string }>;
    expect(listed.find((entry) => entry.id === id)?.deletedAt).toBe('2026-11-20T08:30:15.123Z');
  });

  it('refuses a trash time that is not whole milliseconds with a 400 naming the header, and moves nothing', async () => {
    const { client, id } = await userWithEntry();
    const before = await snapshotDatabase(h.db);
    for (const bad of ['soon', '-5', '1.5', '99999999999999999']) {
      const refused = await client.delete(`${apiPaths.deleteEntry(id)}?revision=1`, { headers: { [TRASHED_AT_HEADER]: bad } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(`${TRASHED_AT_HEADER} must be a whole number of milliseconds since 1970`);
    }
    expect(await snapshotDatabase(h.db)).toEqual(before);
  });

  it('purges a trashed entry of a vault with a state only with the next state: none is 428, a stale one 409, and the entry stays', async () => {
    const { client, account, id } = await userWithEntry();
    expect((await client.delete(`${apiPaths.deleteEntry(id)}?revision=1`)).statusCode).toBe(200);
    const first = vaultStateV2Of(1, 0, 1);
    expect((await client.put(apiPaths.vaultState, { state: first })).statusCode).toBe(200);
    const before = await snapshotDatabase(h.db);

    expect((await client.delete(`${apiPaths.purgeEntry(id)}?revision=2`)).statusCode).toBe(428);
    const stale = await client.delete(`${apiPaths.purgeEntry(id)}?revision=2`, withState(vaultStateV2Of(1)));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'vault-state-stale', state: first });
    expect(await snapshotDatabase(h.db)).toEqual(before);

    const next = vaultStateV2Of(2);
    expect((await client.delete(`${apiPaths.purgeEntry(id)}?revision=2`, withState(next))).statusCode).toBe(200);
    expect(await entryRows(id)).toEqual([]);
    expect(await storedVaultState(h.db, account.username)).toMatchObject({ state: next, counter: 2 });
  });

  it('puts the changed entries of an undone import in Trash since the time the undo names', async () => {
    const { client, account } = await signedInUser(h);
    const batchId = randomUUID();
    const [kept, changed] = [await encryptEntry(account, plain), await encryptEntry(account, plain)];
    expect((await client.post(apiPaths.entryBatch, { batchId, entries: [kept, changed] })).statusCode).toBe(201);
    const edit = await encryptEntry(account, { ...plain, password: 'edited' }, changed.id);
    expect((await client.put(apiPaths.updateEntry(changed.id), { ...edit, revision: 1 })).statusCode).toBe(200);

    const undone = await client.delete(apiPaths.entryBatchUndo(batchId), {
      headers: { [TRASHED_AT_HEADER]: String(TRASHED_AT) },
    });
    expect(undone.json().data).toEqual({ purged: 1, trashed: 1 });
    expect(await entryRows(changed.id)).toEqual([{ id: changed.id, deleted_at: TRASHED_AT }]);
  });

  it('the trash purge leaves the Trash of a vault with a state (its browser purges it), and purges a vault without one as before', async () => {
    const guarded = await userWithEntry();
    const plainVault = await userWithEntry();
    for (const { client, id } of [guarded, plainVault])
      expect((await client.delete(`${apiPaths.deleteEntry(id)}?revision=1`)).statusCode).toBe(200);
    expect((await guarded.client.put(apiPaths.vaultState, { state: vaultStateV2Of(1, 0, 1) })).statusCode).toBe(200);

    h.clock.advance(RETENTION_DAYS * DAY + 60_000);
    await purgeExpiredTrash({ db: h.db, repos: createRepositories(h.db), config: h.config, now: h.clock.now });
    expect(await entryRows(guarded.id)).toHaveLength(1);
    expect(await entryRows(plainVault.id)).toEqual([]);
  });

  it('never stores a version 1 state on top of a version 2 one (409 stale, nothing written); a version 2 one replaces a version 1 one', async () => {
    const { client, account } = await signedInUser(h);
    expect((await client.put(apiPaths.vaultState, { state: vaultStateOf(1) })).statusCode).toBe(200);
    const upgraded = vaultStateV2Of(2, 1);
    expect((await client.post(apiPaths.addEntry, await encryptEntry(account, plain), withState(upgraded))).statusCode).toBe(201);

    const before = await snapshotDatabase(h.db);
    const downgrade = await client.post(apiPaths.addEntry, await encryptEntry(account, plain), withState(vaultStateOf(3, 2)));
    expect(downgrade.statusCode).toBe(409);
    expect(downgrade.json()).toMatchObject({ code: 'vault-state-stale', state: upgraded });
    expect(await snapshotDatabase(h.db)).toEqual(before);
    expect(await storedVaultState(h.db, account.username)).toMatchObject({ state: upgraded, counter: 2 });
  });

  it('tells any browser the Trash retention the operator set', async () => {
    const answer = await h.client().get(apiPaths.publicConfig);
    expect(publicConfigResponseSchema.parse(answer.json()).data.trashRetentionDays).toBe(RETENTION_DAYS);
  });
});
