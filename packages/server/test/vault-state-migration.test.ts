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
 * Migration 0014 on this run's database: a database at 0013 with accounts and folders gains
 * the (empty) vault state columns, and moves to per-account folder ids without losing or
 * changing a row.
 */
let database: MigratedDatabase;

const folder = (id: string, userId: string, revision = 1) => ({
  id,
  user_id: userId,
  name: `v1.name-${userId}-${id}`,
  revision,
  created_at: 10 + revision,
  updated_at: 20 + revision,
});

const FOLDER_ONE = '11111111-1111-4111-8111-111111111111';
const FOLDER_TWO = '22222222-2222-4222-8222-222222222222';
const foldersBefore = [
  folder(FOLDER_ONE, 'alice', 3),
  folder(FOLDER_TWO, 'alice'),
  folder(FOLDER_TWO.replace('2222-4', '3333-4'), 'bob', 2),
];

beforeAll(async () => {
  database = await createMigratedDatabase('0013-passkey-sign-in', async (raw) => {
    await raw
      .insertInto('users')
      .values([oldUser('alice'), oldUser('bob')])
      .execute();
    await raw.insertInto('folders').values(foldersBefore).execute();
  });
});
afterAll(async () => database?.drop());

describe(`migration 0014 (vault state, folder ids per account) on ${TEST_DB_KIND}`, () => {
  it('keeps every folder as it was', async () => {
    const folders = await database.db.selectFrom('folders').selectAll().execute();
    // Migrated to the latest: 0017 gives rows written before it change number 0.
    const expected = foldersBefore.map((row) => ({ ...row, change_seq: 0 }));
    expect(sortedByAccount(normalised(folders) as never)).toEqual(sortedByAccount(expected as never));
  });

  it('gives every existing account no vault state: null, counter 0', async () => {
    const rows = await database.db
      .selectFrom('users')
      .select(['id', 'vault_state', 'vault_state_counter'])
      .orderBy('id')
      .execute();
    expect(normalised(rows)).toEqual([
      { id: 'alice', vault_state: null, vault_state_counter: 0 },
      { id: 'bob', vault_state: null, vault_state_counter: 0 },
    ]);
  });

  it("then takes another account's folder under an existing id, and refuses the same id twice in one account", async () => {
    await database.raw.insertInto('folders').values(folder(FOLDER_ONE, 'bob')).execute();
    const twice = await failureOf(
      database.raw
        .insertInto('folders')
        .values(folder(FOLDER_ONE, 'bob', 2))
        .execute(),
    );
    expect(isUniqueViolation(twice)).toBe(true);
    const ones = await database.db
      .selectFrom('folders')
      .select(['user_id', 'name'])
      .where('id', '=', FOLDER_ONE)
      .orderBy('user_id')
      .execute();
    expect(ones).toEqual([
      { user_id: 'alice', name: `v1.name-alice-${FOLDER_ONE}` },
      { user_id: 'bob', name: `v1.name-bob-${FOLDER_ONE}` },
    ]);
  });

  it("still deletes an account's folders with the account, and only its own", async () => {
    await database.db.deleteFrom('users').where('id', '=', 'alice').execute();
    const left = await database.db.selectFrom('folders').select(['user_id']).execute();
    expect(left.map((row) => row.user_id)).toEqual(['bob', 'bob']);
  });
});
