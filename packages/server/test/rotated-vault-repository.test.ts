import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRotatedVaultRepository, type EntryCiphertexts } from '../src/db/repositories/rotated-vault-repository';
import { createUsersRepository } from '../src/db/repositories/users-repository';
import type { Db } from '../src/db/schema';
import { oldUser } from './helpers/migration-database';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './helpers/test-database';

/** More than one statement's worth on PostgreSQL (the commit sends pages of 500). */
const COUNT = 501;
const NOW = 1_800_000_000_000;

const ciphertexts = (tag: string, nulls: boolean): EntryCiphertexts => ({
  service_name: `${tag}-name`,
  username: `${tag}-user`,
  password: `${tag}-password`,
  url: nulls ? null : `${tag}-url`,
  notes: nulls ? null : `${tag}-notes`,
  overview: `${tag}-overview`,
  details: nulls ? null : `${tag}-details`,
});

/** A bare account row: the repository under test reads only its id. */
async function addUser(db: Db): Promise<string> {
  const id = randomUUID();
  await createUsersRepository(db).insert(oldUser(id));
  return id;
}

async function addEntries(db: Db, userId: string, ids: readonly string[], tag: string): Promise<void> {
  for (let start = 0; start < ids.length; start += 100) {
    const rows = ids.slice(start, start + 100).map((id, i) => ({
      id,
      user_id: userId,
      ...ciphertexts(tag, (start + i) % 2 === 0),
      revision: 4,
      created_at: NOW,
      updated_at: NOW,
    }));
    await db.insertInto('entries').values(rows).execute();
    await db
      .insertInto('entry_history')
      .values(
        rows.map(({ id: entryId, created_at: _created, updated_at: _updated, ...row }) => ({
          ...row,
          id: randomUUID(),
          entry_id: entryId,
          revision: 3,
          saved_at: NOW,
          replaced_at: NOW,
        })),
      )
      .execute();
  }
}

describe(`rotated vault repository: replacing ciphertexts in bulk (${TEST_DB_KIND})`, () => {
  let database: TestDatabase;
  let alice: string;
  let bob: string;
  const ids = Array.from({ length: COUNT }, () => randomUUID());

  beforeAll(async () => {
    database = await createTestDatabase();
    alice = await addUser(database.db);
    bob = await addUser(database.db);
    await addEntries(database.db, alice, ids, 'old');
    // Entry ids are per account: Bob holds an entry with one of Alice's ids.
    await addEntries(database.db, bob, [ids[0]!], 'bob');
  });
  afterAll(() => database.drop());

  it("replaces every entry's and version's seven ciphertexts, nulls included; entries take revision + 1, versions keep theirs; another account's entry of the same id is untouched", async () => {
    const repo = createRotatedVaultRepository(database.db);
    // The first row has nulls where the rest has text: PostgreSQL types the VALUES by it.
    const fields = (i: number) => ciphertexts(`new${i}`, i % 3 === 0);
    await database.db.transaction().execute(async (trx) => {
      await repo.replaceEntries(
        alice,
        ids.map((id, i) => ({ id, fields: fields(i) })),
        trx,
      );
      await repo.replaceVersions(
        alice,
        ids.map((entryId, i) => ({ entryId, revision: 3, fields: fields(i) })),
        trx,
      );
    });

    const entries = await database.db.selectFrom('entries').selectAll().where('user_id', '=', alice).execute();
    const versions = await database.db.selectFrom('entry_history').selectAll().where('user_id', '=', alice).execute();
    expect(entries).toHaveLength(COUNT);
    expect(versions).toHaveLength(COUNT);
    const index = new Map<string, number>(ids.map((id, i) => [id, i]));
    for (const row of entries) {
      const { service_name, username, password, url, notes, overview, details } = row;
      expect({ service_name, username, password, url, notes, overview, details }).toEqual(fields(index.get(row.id)!));
      expect(Number(row.revision)).toBe(5);
    }
    for (const row of versions) {
      const { service_name, username, password, url, notes, overview, details } = row;
      expect({ service_name, username, password, url, notes, overview, details }).toEqual(fields(index.get(row.entry_id)!));
      expect(Number(row.revision)).toBe(3);
    }
    const bobs = await database.db.selectFrom('entries').selectAll().where('user_id', '=', bob).executeTakeFirstOrThrow();
    expect(bobs).toMatchObject({ service_name: 'bob-name', url: null, revision: 4 });
  });

  it('does nothing for an empty list', async () => {
    const repo = createRotatedVaultRepository(database.db);
    await repo.replaceEntries(alice, []);
    await repo.replaceVersions(alice, []);
    const row = await database.db.selectFrom('entries').select('revision').where('user_id', '=', bob).executeTakeFirstOrThrow();
    expect(Number(row.revision)).toBe(4);
  });
});
