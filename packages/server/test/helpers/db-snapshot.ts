import { sql } from 'kysely';
import type { Db } from '../../src/db/schema';

export type DatabaseSnapshot = Record<string, string[]>;

/**
 * Every row of every table (Kysely's migration tables included), each row as JSON, sorted:
 * two snapshots are equal exactly when no write happened in between.
 */
export async function snapshotDatabase(db: Db): Promise<DatabaseSnapshot> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const snapshot: DatabaseSnapshot = {};
  for (const table of tables.map((t) => t.name).sort()) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    snapshot[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return snapshot;
}
