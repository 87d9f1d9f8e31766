import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedDatabase, oldUser, type MigratedDatabase } from './helpers/migration-database';
import { TEST_DB_KIND } from './helpers/test-database';

/**
 * Migration 0012 on this run's database: accounts made before key generations exist keep
 * every key column as it was and are generation 0, the generation of their existing wraps.
 */
let database: MigratedDatabase;

beforeAll(async () => {
  database = await createMigratedDatabase('0011-entry-ids-per-account', async (raw) => {
    await raw
      .insertInto('users')
      .values([oldUser('alice'), oldUser('bob', { verified_at: null })])
      .execute();
  });
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
    await database.raw.insertInto('users').values(oldUser('carol')).execute();
    const row = await database.db
      .selectFrom('users')
      .select('key_generation')
      .where('id', '=', 'carol')
      .executeTakeFirstOrThrow();
    expect(Number(row.key_generation)).toBe(0);
  });
});
