import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../src/db/create-database';
import {
  createMigratedDatabase,
  failureOf,
  normalised,
  oldUser,
  sortedByAccount,
  type MigratedDatabase,
} from './helpers/migration-database';
import { TEST_DB_KIND } from './helpers/test-database';

/**
 * Migration 0011 on this run's database: a database at 0010 with entries and their history
 * moves to per-account entry ids without losing or changing a row.
 */
let database: MigratedDatabase;

const entry = (id: string, userId: string, extra: Record<string, unknown> = {}) => ({
  id,
  user_id: userId,
  service_name: `v1.s-${id}`,
  username: 'v1.u',
  password: `v1.p-${userId}`,
  url: null,
  notes: 'v1.n',
  revision: 3,
  created_at: 10,
  updated_at: 20,
  overview: 'v1.o',
  details: null,
  deleted_at: null,
  import_batch: 'batch-1',
  ...extra,
});
const version = (id: string, entryId: string, userId: string, revision: number) => ({
  id,
  entry_id: entryId,
  user_id: userId,
  revision,
  service_name: 'v1.old',
  username: 'v1.u',
  password: 'v1.p-old',
  url: 'v1.url',
  notes: null,
  overview: null,
  details: 'v1.d',
  saved_at: revision,
  replaced_at: revision + 1,
});

const ENTRY_ONE = '11111111-1111-4111-8111-111111111111';
const ENTRY_TWO = '22222222-2222-4222-8222-222222222222';
const entriesBefore = [
  entry(ENTRY_ONE, 'alice'),
  entry(ENTRY_TWO, 'alice', { deleted_at: 30, url: 'v1.url' }),
  entry(ENTRY_ONE.replace('1111-4', '3333-4'), 'bob'),
];
const historyBefore = [
  version('h1', ENTRY_ONE, 'alice', 1),
  version('h2', ENTRY_ONE, 'alice', 2),
  version('h3', ENTRY_TWO, 'alice', 1),
];

beforeAll(async () => {
  database = await createMigratedDatabase('0010-two-factor', async (raw) => {
    await raw
      .insertInto('users')
      .values([oldUser('alice'), oldUser('bob')])
      .execute();
    await raw.insertInto('entries').values(entriesBefore).execute();
    await raw.insertInto('entry_history').values(historyBefore).execute();
  });
});
afterAll(async () => database?.drop());

describe(`migration 0011 (entry ids per account) on ${TEST_DB_KIND}`, () => {
  it('keeps every entry and every version as it was', async () => {
    const entries = await database.db.selectFrom('entries').selectAll().execute();
    // Migrated to the latest: 0017 gives rows written before it change number 0.
    const expected = entriesBefore.map((row) => ({ ...row, change_seq: 0 }));
    expect(sortedByAccount(normalised(entries) as never)).toEqual(sortedByAccount(expected as never));
    const history = await database.db.selectFrom('entry_history').selectAll().execute();
    expect(sortedByAccount(normalised(history) as never)).toEqual(sortedByAccount(historyBefore as never));
  });

  it("then takes another account's entry under an existing id, and refuses the same id twice in one account", async () => {
    await database.raw.insertInto('entries').values(entry(ENTRY_ONE, 'bob')).execute();
    const twice = await failureOf(database.raw.insertInto('entries').values(entry(ENTRY_ONE, 'bob')).execute());
    expect(isUniqueViolation(twice)).toBe(true);
  });

  it("ties a version to its own account's entry: deleting one entry takes only its history", async () => {
    await database.raw
      .insertInto('entry_history')
      .values(version('h4', ENTRY_ONE, 'bob', 1))
      .execute();
    await database.db.deleteFrom('entries').where('user_id', '=', 'alice').where('id', '=', ENTRY_ONE).execute();
    const left = await database.db.selectFrom('entry_history').select(['id']).orderBy('id').execute();
    expect(left).toEqual([{ id: 'h3' }, { id: 'h4' }]);
    // A version naming an entry its account does not have is refused.
    const orphan = await failureOf(
      database.raw
        .insertInto('entry_history')
        .values(version('h5', ENTRY_TWO, 'bob', 1))
        .execute(),
    );
    expect(orphan).toBeInstanceOf(Error);
  });
});
