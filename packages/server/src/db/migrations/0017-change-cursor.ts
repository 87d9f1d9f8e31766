import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * The change cursor (decision 0066): "what changed in this vault after change N".
 *
 * - `users.vault_revision` (since 0002) is already bumped once, in the same transaction, by
 *   every write of the vault (entry and folder writes, purges, import batches and their undo,
 *   the first vault state, the trash purge job, a key rotation's swap). It becomes the account's
 *   change sequence: `entries.change_seq` and `folders.change_seq` name the revision that last
 *   wrote the row. Rows written before this migration keep 0: no cursor below the floor is
 *   ever honoured, so they are reached only by a full read (cursor 0).
 * - `vault_tombstones`: one row per entry or folder deleted for good (id, its last revision,
 *   the change that deleted it), so a device that held it learns it is gone.
 * - `users.change_floor`: the lowest cursor the server can still answer completely. Set to the
 *   current revision here (no tombstones exist of earlier deletions), raised when tombstones are
 *   pruned and by a key rotation (every ciphertext changed: a full reload).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('change_floor', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update users set change_floor = vault_revision`.execute(db);
  for (const table of ['entries', 'folders']) {
    await db.schema
      .alterTable(table)
      .addColumn('change_seq', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.createIndex('entries_user_change_idx').on('entries').columns(['user_id', 'change_seq']).execute();
  await db.schema
    .createTable('vault_tombstones')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('change_seq', 'bigint', (c) => c.notNull())
    .addColumn('purged_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('vault_tombstones_pkey', ['user_id', 'kind', 'id'])
    .execute();
  await db.schema
    .createIndex('vault_tombstones_user_change_idx')
    .on('vault_tombstones')
    .columns(['user_id', 'change_seq'])
    .execute();
  await db.schema.createIndex('vault_tombstones_purged_at_idx').on('vault_tombstones').column('purged_at').execute();
}
