import type { Kysely } from 'kysely';

/**
 * Attachments (decision 0071): files of an entry, sealed in the browser.
 *
 * - attachments: one file of an entry (by the ids the client made, unique per account): its
 *   wrapped file key and sealed metadata (opaque here), its sealed size, how many of those
 *   bytes have arrived, and when the upload finished (null: still under way, never listed).
 * - attachment_chunks: the sealed content by byte offset, used only when the server runs on
 *   PostgreSQL, so every process behind a load balancer serves the same files; on SQLite the
 *   content is a file in the data folder beside the database, and this table stays empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('attachments')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('wrapped_key', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('received', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('finished_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('attachments_pk', ['user_id', 'id'])
    .execute();
  await db.schema.createIndex('attachments_entry_idx').on('attachments').columns(['user_id', 'entry_id']).execute();

  await db.schema
    .createTable('attachment_chunks')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('attachment_id', 'text', (c) => c.notNull())
    .addColumn('byte_offset', 'bigint', (c) => c.notNull())
    .addColumn('data', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('attachment_chunks_pk', ['user_id', 'attachment_id', 'byte_offset'])
    .addForeignKeyConstraint('attachment_chunks_file_fk', ['user_id', 'attachment_id'], 'attachments', ['user_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
}
