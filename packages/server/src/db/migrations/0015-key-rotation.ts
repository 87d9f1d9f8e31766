import type { Kysely } from 'kysely';

/**
 * Key rotation (decision 0054). The browser re-encrypts the whole vault under a new
 * vault key and uploads it in parts beside the live vault; a commit swaps it all in one
 * transaction. Nothing here is read by the vault until that commit, so a rotation abandoned
 * halfway leaves the live rows whole; its staged rows expire and the cleanup job deletes them.
 *
 * - key_rotations: one started rotation of a user (a new start deletes older ones), tied to the
 *   session that started it and to the vault revision its ciphertexts were read at.
 * - key_rotation_parts: one re-encrypted item each, by kind ('entry' | 'version' | 'folder' |
 *   'document') and key (entry id; `<entryId>:<revision>`; folder id; document kind); payload
 *   is the JSON of its ciphertexts, never anything in the clear.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('key_rotations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('base_vault_revision', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('key_rotations_user_idx').on('key_rotations').column('user_id').execute();
  await db.schema.createIndex('key_rotations_expires_idx').on('key_rotations').column('expires_at').execute();

  await db.schema
    .createTable('key_rotation_parts')
    .addColumn('rotation_id', 'text', (c) => c.notNull().references('key_rotations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('key_rotation_parts_pk', ['rotation_id', 'kind', 'item_key'])
    .execute();
}
