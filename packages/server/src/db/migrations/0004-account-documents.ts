import type { Kysely } from 'kysely';

/**
 * Encrypted account documents (decision 0030): at most one per user and kind
 * (generator settings, generator history, health settings), each a ciphertext the server
 * cannot read, with the revision its writes compare and swap on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_documents')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ciphertext', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_documents_pkey', ['user_id', 'kind'])
    .execute();
}
