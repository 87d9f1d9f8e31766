import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { migrations } from '../src/db/migrations/index';
import { migrateToLatest } from '../src/db/migrate';
import { isUniqueViolation } from '../src/db/create-database';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './helpers/test-database';

/**
 * Migration 0011 on this run's database: a database at 0010 with entries and their history
 * moves to per-account entry ids without losing or changing a row.
 */
let database: TestDatabase;

const user = (id: string) => ({
  id,
  username: id,
  username_folded: id,
  email: `${id}@example.test`,
  email_folded: `${id}@example.test`,
  fullname: id,
  auth_hash: 'hash',
  kdf_algorithm: 'argon2id',
  kdf_memory_kib: 65536,
  kdf_iterations: 3,
  kdf_parallelism: 4,
  salt: 'salt',
  protected_key: 'v1.key',
  verified_at: 1,
  created_at: 1,
  updated_at: 1,
});
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
  database = await createTestDatabase({ migrate: false });
  const { db } = database;
  const schema =
    TEST_DB_KIND === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo('0010-two-factor');
  if (error) throw error;
  const raw = db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
  await raw
    .insertInto('users')
    .values([user('alice'), user('bob')])
    .execute();
  await raw.insertInto('entries').values(entriesBefore).execute();
  await raw.insertInto('entry_history').values(historyBefore).execute();
  await migrateToLatest(db, database.config.kind);
});
afterAll(async () => database?.drop());

const sorted = <T extends { id: string; user_id: string }>(rows: T[]) =>
  [...rows].sort((a, b) => `${a.user_id}${a.id}`.localeCompare(`${b.user_id}${b.id}`));
/** bigint columns come back as strings from PostgreSQL: compare values as numbers where they are numeric. */
const normalised = (rows: Array<Record<string, unknown>>) =>
  rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [key, typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value]),
    ),
  );

describe(`migration 0011 (entry ids per account) on ${TEST_DB_KIND}`, () => {
  it('keeps every entry and every version as it was', async () => {
    const entries = await database.db.selectFrom('entries').selectAll().execute();
    expect(sorted(normalised(entries) as never)).toEqual(sorted(entriesBefore as never));
    const history = await database.db.selectFrom('entry_history').selectAll().execute();
    expect(sorted(normalised(history) as never)).toEqual(sorted(historyBefore as never));
  });

  it("then takes another account's entry under an existing id, and refuses the same id twice in one account", async () => {
    const raw = database.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
    await raw.insertInto('entries').values(entry(ENTRY_ONE, 'bob')).execute();
    const twice = await raw
      .insertInto('entries')
      .values(entry(ENTRY_ONE, 'bob'))
      .execute()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isUniqueViolation(twice)).toBe(true);
  });

  it("ties a version to its own account's entry: deleting one entry takes only its history", async () => {
    const raw = database.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
    await raw
      .insertInto('entry_history')
      .values(version('h4', ENTRY_ONE, 'bob', 1))
      .execute();
    await database.db.deleteFrom('entries').where('user_id', '=', 'alice').where('id', '=', ENTRY_ONE).execute();
    const left = await database.db.selectFrom('entry_history').select(['id']).orderBy('id').execute();
    expect(left).toEqual([{ id: 'h3' }, { id: 'h4' }]);
    // A version naming an entry its account does not have is refused.
    const orphan = await raw
      .insertInto('entry_history')
      .values(version('h5', ENTRY_TWO, 'bob', 1))
      .execute()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(orphan).toBeInstanceOf(Error);
  });
});
