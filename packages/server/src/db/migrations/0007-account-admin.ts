import type { Kysely } from 'kysely';

/**
 * Administration: a user can be disabled (null = active) and shows when it was
 * last seen; admin sessions live in the database so every server process shares them.
 * Admin tokens are stored only as SHA-256 hashes, like user session tokens.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('last_seen_at', 'bigint').execute();

  await db.schema
    .createTable('admin_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
}
