import type { Kysely } from 'kysely';

/**
 * Invitations (decision 0044): one row per invitation link. Only the SHA-256 of the
 * link's random token is stored. `invited_by` is the user who made it (null: the operator);
 * their open invitations go with their account. `used_at`/`used_by` are set once, by the
 * sign-up that used it, in the transaction that creates that account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('email_folded', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('used_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  // Serves a user's list of their own invitations.
  await db.schema.createIndex('invites_invited_by_idx').on('invites').column('invited_by').execute();
}
