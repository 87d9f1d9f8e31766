import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { adminQuery, PG_URL } from '@lockit/test-support';
import { createDatabase } from '../../src/db/create-database';
import { migrateToLatest } from '../../src/db/migrate';
import type { DatabaseConfig } from '../../src/config/app-config';
import type { Db } from '../../src/db/schema';

export const TEST_DB_KIND = process.env.LOCKIT_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export { adminQuery, PG_URL };

export interface TestDatabase {
  db: Db;
  config: DatabaseConfig;
  drop(): Promise<void>;
}

/**
 * A fresh database, migrated unless `migrate` is false (migration tests run their own): a SQLite file in a temp folder, or (LOCKIT_TEST_DB=postgres)
 * a new schema on the test server, dropped afterwards.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (TEST_DB_KIND === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'lockit-test-'));
    const config: DatabaseConfig = { kind: 'sqlite', file: path.join(dir, 'lockit.sqlite') };
    const db = createDatabase(config);
    if (migrate) await migrateToLatest(db, config.kind);
    return {
      db,
      config,
      async drop() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `lockit_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE SCHEMA ${schema}`);
  const config: DatabaseConfig = { kind: 'postgres', url: PG_URL, searchPath: schema };
  const db = createDatabase(config);
  if (migrate) await migrateToLatest(db, config.kind);
  return {
    db,
    config,
    async drop() {
      await db.destroy();
      await adminQuery(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}
