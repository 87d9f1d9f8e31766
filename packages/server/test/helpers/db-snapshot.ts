import { sql } from 'kysely';
import type { Db } from '../../src/db/schema';

export type DatabaseSnapshot = Record<string, string[]>;

/** Written by the process's own timers (heartbeat, job leases), never by a request: left out. */
const TIMER_TABLES = new Set(['server_processes', 'job_leases']);

/**
 * Every row of every table (Kysely's migration tables included; not TIMER_TABLES), each row as JSON, sorted:
 * two snapshots are equal exactly when no write happened in between.
 */
export async function snapshotDatabase(db: Db): Promise<DatabaseSnapshot> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const snapshot: DatabaseSnapshot = {};
  for (const table of tables
    .map((t) => t.name)
    .filter((name) => !TIMER_TABLES.has(name))
    .sort()) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    snapshot[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return snapshot;
}
