import { Migrator, sql, type Kysely } from 'kysely';
import type { DatabaseConfig } from '../config/app-config';
import { migrations } from './migrations/index';
import type { Database } from './schema';

/**
 * Brings the schema to the latest migration (forward only). Concurrent starts are safe:
 * Kysely's Migrator takes a lock. On PostgreSQL the bookkeeping tables live in the current
 * schema (search_path), and only that schema is looked at, so several Lockit schemas in one
 * database do not see each other's migrations.
 */
export async function migrateToLatest(db: Kysely<Database>, kind: DatabaseConfig['kind']): Promise<void> {
  const schema = kind === 'postgres' ? await currentSchema(db) : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = result.rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check the search_path of DATABASE_URL.');
  return schema;
}
