import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
import { createDatabase } from '../src/db/create-database';
import { createRepositories } from '../src/db/repositories/index';
import type { Db } from '../src/db/schema';
import { purgeExpiredTrash, TRASH_PURGE_BATCH } from '../src/vault/trash-purge';
import { login, signedInUser } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { useTestApp } from './helpers/test-app';
import { TEST_DB_KIND } from './helpers/test-database';

const RETENTION_DAYS = 7;
const DAY = 24 * 60 * 60 * 1000;
const h = useTestApp({ config: { trashRetentionDays: RETENTION_DAYS } });

/** The purge as one more server process would run it: its own connection, the app's clock. */
const purgeOn = (db: Db) => purgeExpiredTrash({ db, repos: createRepositories(db), config: h.config, now: h.clock.now });

/** A user with an entry that was edited once (so it has history) and then moved to Trash. */
async function trashedEntry() {
  const user = await signedInUser(h);
  const body = await encryptEntry(user.account, { serviceName: 's', username: 'u', password: 'p' });
  await user.client.post(apiPaths.addEntry, body);
  const edit = await encryptEntry(user.account, { serviceName: 's', username: 'u', password: 'p2' }, body.id);
  await user.client.put(apiPaths.updateEntry(body.id), { ...edit, revision: 1 });
  const trashed = (await user.client.delete(`${apiPaths.deleteEntry(body.id)}?revision=2`)).json().data;
  return { ...user, id: body.id as string, trashed };
}

/** Days pass for the person too: a new sign-in, since the old session has expired. */
async function signInAgain(user: Awaited<ReturnType<typeof signedInUser>>) {
  expect((await login(user.client, user.account)).statusCode).toBe(200);
}

const stored = async (id: string) => ({
  entries: (await h.db.selectFrom('entries').select('id').where('id', '=', id).execute()).length,
  history: (await h.db.selectFrom('entry_history').select('id').where('entry_id', '=', id).execute()).length,
});

describe('the trash purge', () => {
  it('keeps trash younger than TRASH_RETENTION_DAYS, and deletes it with its history after', async () => {
    const owner = await trashedEntry();
    const { client, id, trashed } = owner;
    expect(await stored(id)).toEqual({ entries: 1, history: 2 });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([trashed]); // now cached

    h.clock.advance(RETENTION_DAYS * DAY - 60_000);
    await purgeOn(h.db);
    expect(await stored(id)).toEqual({ entries: 1, history: 2 });
    await signInAgain(owner);
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([trashed]);

    h.clock.advance(2 * 60_000);
    expect(await purgeOn(h.db)).toBeGreaterThanOrEqual(1);
    expect(await stored(id)).toEqual({ entries: 0, history: 0 });
    // The owner's vault revision moved with the purge: no process answers from its old list.
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([]);
    expect((await client.get(apiPaths.entryHistory(id))).statusCode).toBe(404);
  });

  it('never deletes a live entry, however old, nor a restored one', async () => {
    const user = await signedInUser(h);
    const body = await encryptEntry(user.account, { serviceName: 'old', username: 'u', password: 'p' });
    const created = (await user.client.post(apiPaths.addEntry, body)).json().data;
    const other = await trashedEntry();
    const { client, id } = other;
    const restored = (await client.post(apiPaths.restoreEntry(id), { revision: 3 })).json().data;
    h.clock.advance(10 * RETENTION_DAYS * DAY);
    await purgeOn(h.db);
    await signInAgain(user);
    await signInAgain(other);
    expect((await user.client.get(apiPaths.listEntries)).json().data).toEqual([created]);
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([restored]);
  });

  it('is idempotent and safe with several processes at once, batch after batch', async () => {
    const { account } = await signedInUser(h);
    const user = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
    const trashedAt = h.clock.now() - RETENTION_DAYS * DAY - 1;
    const count = 2 * TRASH_PURGE_BATCH + 37;
    const ids = Array.from({ length: count }, () => randomUUID());
    const c = 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA';
    for (let start = 0; start < count; start += 100) {
      const batch = ids.slice(start, start + 100);
      const row = () => ({ service_name: c, username: c, password: c, url: null, notes: null, overview: null, details: null });
      await h.db
        .insertInto('entries')
        .values(
          batch.map((id) => ({
            id,
            user_id: user.id,
            ...row(),
            revision: 2,
            created_at: trashedAt,
            updated_at: trashedAt,
            deleted_at: trashedAt,
          })),
        )
        .execute();
      await h.db
        .insertInto('entry_history')
        .values(
          batch.map((id) => ({
            id: randomUUID(),
            entry_id: id,
            user_id: user.id,
            revision: 1,
            ...row(),
            saved_at: trashedAt,
            replaced_at: trashedAt,
          })),
        )
        .execute();
    }
    const before = await h.db.selectFrom('users').select('vault_revision').where('id', '=', user.id).executeTakeFirstOrThrow();

    // Several processes share a database on PostgreSQL; a SQLite file has one server process,
    // whose purges (at start, on the interval) share its one connection.
    const others =
      TEST_DB_KIND === 'postgres' ? [createDatabase(h.config.database), createDatabase(h.config.database)] : [h.db, h.db];
    try {
      const purged = await Promise.all([purgeOn(h.db), ...others.map(purgeOn)]);
      expect(purged.reduce((sum, n) => sum + n, 0)).toBe(count);
      expect(await Promise.all([purgeOn(h.db), ...others.map(purgeOn)])).toEqual([0, 0, 0]);
    } finally {
      if (TEST_DB_KIND === 'postgres') await Promise.all(others.map((db) => db.destroy()));
    }
    expect(await h.db.selectFrom('entries').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await h.db.selectFrom('entry_history').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    const after = await h.db.selectFrom('users').select('vault_revision').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(after.vault_revision)).toBeGreaterThan(Number(before.vault_revision));
  });

  it('runs when a server starts, before it is ready', async () => {
    const owner = await trashedEntry();
    const { client, id } = owner;
    h.clock.advance(RETENTION_DAYS * DAY + 1);
    const starting = await buildApp(h.config, { db: h.db, now: h.clock.now });
    try {
      expect(await stored(id)).toEqual({ entries: 1, history: 2 });
      await starting.ready();
      expect(await stored(id)).toEqual({ entries: 0, history: 0 });
      await signInAgain(owner);
      expect((await client.get(apiPaths.listEntries)).json().data).toEqual([]);
    } finally {
      await starting.close();
    }
  });

  it('runs again on its interval while the server runs', async () => {
    const server = await buildApp(h.config, { db: h.db, now: h.clock.now, jobs: { intervalsMs: { 'trash-purge': 20 } } });
    try {
      await server.ready();
      const { id } = await trashedEntry();
      expect(await stored(id)).toEqual({ entries: 1, history: 2 });
      h.clock.advance(RETENTION_DAYS * DAY + 1);
      const deadline = Date.now() + 5_000;
      while ((await stored(id)).entries > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await stored(id)).toEqual({ entries: 0, history: 0 });
    } finally {
      await server.close();
    }
  });
});
