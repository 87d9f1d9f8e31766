import type { Kysely } from 'kysely';

/**
 * Items: an entry's two encrypted documents (`overview`, `details`) and its Trash
 * time; every replaced version of an entry (`entry_history`); folders. New columns are
 * nullable, so existing rows stay valid as they are (no overview: the old entry format, which
 * the web app upgrades by saving the entry again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('overview', 'text').execute();
  await db.schema.alterTable('entries').addColumn('details', 'text').execute();
  await db.schema.alterTable('entries').addColumn('deleted_at', 'bigint').execute();
  // The purge job looks for trash older than the retention across all users.
  await db.schema.createIndex('entries_deleted_at_idx').on('entries').column('deleted_at').execute();

  await db.schema
    .createTable('entry_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entry_id', 'text', (c) => c.notNull().references('entries.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('notes', 'text')
    .addColumn('overview', 'text')
    .addColumn('details', 'text')
    .addColumn('saved_at', 'bigint', (c) => c.notNull())
    .addColumn('replaced_at', 'bigint', (c) => c.notNull())
    .execute();
  // Serves the history read (newest first), the prune and the deletes by entry or by user.
  await db.schema
    .createIndex('entry_history_user_id_entry_id_revision_idx')
    .on('entry_history')
    .columns(['user_id', 'entry_id', 'revision'])
    .execute();

  await db.schema
    .createTable('folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('folders_user_id_idx').on('folders').column('user_id').execute();
}
