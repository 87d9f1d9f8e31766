import type { Kysely } from 'kysely';

/**
 * Import batches (decision 0036): the import an entry came from, a UUID the client
 * made, so one call can undo a whole import. Nullable: entries added one by one have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('import_batch', 'text').execute();
  // Serves the undo (every entry of one batch of one user).
  await db.schema.createIndex('entries_user_id_import_batch_idx').on('entries').columns(['user_id', 'import_batch']).execute();
}
