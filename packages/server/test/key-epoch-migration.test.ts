import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedDatabase, oldUser, type MigratedDatabase } from './helpers/migration-database';
import { TEST_DB_KIND } from './helpers/test-database';

/**
 * Migration 0016 on this run's database: accounts made before key epochs keep every key column
 * as it was and are epoch 0, the epoch of every wrap made before epochs (their associated data
 * names none), so their master password and their passkeys keep unlocking.
 */
let database: MigratedDatabase;

beforeAll(async () => {
  database = await createMigratedDatabase('0015-key-rotation', async (raw) => {
    await raw
      .insertInto('users')
      .values([oldUser('alice'), oldUser('bob')])
      .execute();
  });
});
afterAll(async () => database?.drop());

describe(`migration 0016 (key epoch) on ${TEST_DB_KIND}`, () => {
  it('makes every existing account epoch 0 and leaves its key material and generation as they were', async () => {
    const rows = await database.db
      .selectFrom('users')
      .select(['id', 'key_epoch', 'key_generation', 'protected_key'])
      .orderBy('id')
      .execute();
    expect(rows.map((row) => ({ ...row, key_epoch: Number(row.key_epoch), key_generation: Number(row.key_generation) }))).toEqual(
      [
        { id: 'alice', key_epoch: 0, key_generation: 0, protected_key: 'v1.key-alice' },
        { id: 'bob', key_epoch: 0, key_generation: 0, protected_key: 'v1.key-bob' },
      ],
    );
  });

  it('gives an account inserted afterwards epoch 0 by default', async () => {
    await database.raw.insertInto('users').values(oldUser('carol')).execute();
    const row = await database.db.selectFrom('users').select('key_epoch').where('id', '=', 'carol').executeTakeFirstOrThrow();
    expect(Number(row.key_epoch)).toBe(0);
  });
});
