import type { Kysely } from 'kysely';

/**
 * The first schema. Portable types only (text, integer, bigint) so the same migration runs
 * on SQLite and PostgreSQL. Forward only: there is no `down`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_folded', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_folded', 'text', (c) => c.notNull().unique())
    .addColumn('fullname', 'text', (c) => c.notNull())
    .addColumn('auth_hash', 'text', (c) => c.notNull())
    .addColumn('kdf_algorithm', 'text', (c) => c.notNull())
    .addColumn('kdf_memory_kib', 'integer', (c) => c.notNull())
    .addColumn('kdf_iterations', 'integer', (c) => c.notNull())
    .addColumn('kdf_parallelism', 'integer', (c) => c.notNull())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('protected_key', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('access_hash', 'text', (c) => c.notNull().unique())
    .addColumn('access_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
    .addColumn('refresh_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('retired_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('retired_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('retired_refresh_tokens_session_id_idx')
    .on('retired_refresh_tokens')
    .column('session_id')
    .execute();

  await db.schema
    .createTable('entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('notes', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Serves the list query (by user, oldest first) and every lookup by user.
  await db.schema.createIndex('entries_user_id_created_at_idx').on('entries').columns(['user_id', 'created_at']).execute();
}
