import { sql, type Kysely } from 'kysely';

/**
 * Scheduled jobs and several processes. `job_leases`: one row per job; a process
 * runs a job only while it holds the row's lease (see jobs/job-leases-repository.ts), so one
 * process at a time runs each job, on SQLite and PostgreSQL alike. `server_processes`: a
 * heartbeat row per running process, so a process can tell it is not alone on the database.
 * Plus the indexes the cleanup jobs' deletes look rows up by.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_run_at', 'bigint')
    .addColumn('last_outcome', 'text')
    .addColumn('last_deleted', 'integer')
    .addColumn('last_duration_ms', 'integer')
    .execute();

  await db.schema
    .createTable('server_processes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.createIndex('verification_codes_expires_at_idx').on('verification_codes').column('expires_at').execute();
  // Both limits: the cleanup deletes a session past either (an OR both indexes serve).
  await db.schema.createIndex('sessions_refresh_expires_at_idx').on('sessions').column('refresh_expires_at').execute();
  await db.schema.createIndex('sessions_absolute_expires_at_idx').on('sessions').column('absolute_expires_at').execute();
  await db.schema
    .createIndex('retired_refresh_tokens_retired_at_idx')
    .on('retired_refresh_tokens')
    .column('retired_at')
    .execute();
  // Partial: only unverified accounts, a handful beside the verified ones.
  await db.schema
    .createIndex('users_unverified_created_at_idx')
    .on('users')
    .column('created_at')
    .where(sql.ref('verified_at'), 'is', null)
    .execute();
}
