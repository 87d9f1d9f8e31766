import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import { migrations } from '../src/db/migrations/index';
import { migrateToLatest } from '../src/db/migrate';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './helpers/test-database';

/**
 * Migration 0012 on this run's database: accounts made before key generations exist keep
 * every key column as it was and are generation 0, the generation of their existing wraps.
 */
let database: TestDatabase;

const user = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  username: id,
  username_folded: id,
  email: `${id}@example.test`,
  email_folded: `${id}@example.test`,
  fullname: id,
  auth_hash: 'hash',
  kdf_algorithm: 'argon2id',
  kdf_memory_kib: 19456,
  kdf_iterations: 2,
  kdf_parallelism: 1,
  salt: `salt-${id}`,
  protected_key: `v1.key-${id}`,
  verified_at: 1,
  created_at: 1,
  updated_at: 1,
  ...extra,
});

type RawDb = Kysely<Record<string, Record<string, unknown>>>;

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
  const { error } = await migrator.migrateTo('0011-entry-ids-per-account');
  if (error) throw error;
  await (db as unknown as RawDb)
    .insertInto('users')
    .values([user('alice'), user('bob', { verified_at: null })])
    .execute();
  await migrateToLatest(db, database.config.kind);
});
afterAll(async () => database?.drop());

describe(`migration 0012 (key generation) on ${TEST_DB_KIND}`, () => {
  it('makes every existing account generation 0 and leaves its key material as it was', async () => {
    const rows = await database.db
      .selectFrom('users')
      .select(['id', 'key_generation', 'kdf_memory_kib', 'kdf_iterations', 'salt', 'protected_key'])
      .orderBy('id')
      .execute();
    expect(
      rows.map((row) => ({ ...row, kdf_memory_kib: Number(row.kdf_memory_kib), key_generation: Number(row.key_generation) })),
    ).toEqual([
      {
        id: 'alice',
        key_generation: 0,
        kdf_memory_kib: 19456,
        kdf_iterations: 2,
        salt: 'salt-alice',
        protected_key: 'v1.key-alice',
      },
      { id: 'bob', key_generation: 0, kdf_memory_kib: 19456, kdf_iterations: 2, salt: 'salt-bob', protected_key: 'v1.key-bob' },
    ]);
  });

  it('gives an account inserted afterwards generation 0 by default', async () => {
    await (database.db as unknown as RawDb).insertInto('users').values(user('carol')).execute();
    const row = await database.db
      .selectFrom('users')
      .select('key_generation')
      .where('id', '=', 'carol')
      .executeTakeFirstOrThrow();
    expect(Number(row.key_generation)).toBe(0);
  });
});
