import type { Kysely } from 'kysely';

/**
 * Shared files (decision 0081): a share link may carry a file, sealed in the browser under the
 * link's key. The row gains the file's sealed size (null: a text or an item), how many of its
 * bytes have arrived, and when the upload finished (null: under way, the link does not open).
 * share_file_chunks holds the sealed bytes by offset when the server runs on PostgreSQL, so
 * every process serves them and they go with the row (cascade); on SQLite they are a file in
 * the data folder beside the database, and this table stays empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('share_links').addColumn('file_size', 'bigint').execute();
  await db.schema
    .alterTable('share_links')
    .addColumn('file_received', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('share_links').addColumn('file_finished_at', 'bigint').execute();

  await db.schema
    .createTable('share_file_chunks')
    .addColumn('share_id', 'text', (c) => c.notNull().references('share_links.id').onDelete('cascade'))
    .addColumn('byte_offset', 'bigint', (c) => c.notNull())
    .addColumn('data', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_file_chunks_pk', ['share_id', 'byte_offset'])
    .execute();
}
