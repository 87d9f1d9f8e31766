import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/create-database';
import { migrateToLatest } from '../src/db/migrate';
import { adminQuery, createTestDatabase, PG_URL, type TestDatabase } from './helpers/test-database';

/**
 * Lockit lives in one schema of a PostgreSQL database that may hold others, as the test
 * suite's own files do. PostgreSQL only: vitest.config.ts runs this file in that project.
 */
const OTHER_SCHEMAS = 60;
const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const database of opened) await database.drop();
});

async function otherSchemas(count = OTHER_SCHEMAS): Promise<string[]> {
  const names = Array.from({ length: count }, () => `lockit_other_${randomBytes(5).toString('hex')}`);
  for (const name of names) {
    await adminQuery(`CREATE SCHEMA ${name}; CREATE TABLE ${name}.users (id serial primary key, name text)`);
  }
  return names;
}

describe('Lockit in one schema of a shared PostgreSQL database', () => {
  it('migrates while other schemas of the database are being dropped', async () => {
    const names = await otherSchemas();
    let dropping = true;
    const drops = (async () => {
      for (const name of names) await adminQuery(`DROP SCHEMA ${name} CASCADE`);
      dropping = false;
    })();
    const failures: string[] = [];
    let migrations = 0;
    // Two starts at a time, as two processes sharing the database would.
    const starts = async () => {
      while (dropping || migrations === 0) {
        const schema = `lockit_fresh_${randomBytes(5).toString('hex')}`;
        await adminQuery(`CREATE SCHEMA ${schema}`);
        const db = createDatabase({ kind: 'postgres', url: PG_URL, searchPath: schema });
        try {
          await migrateToLatest(db, 'postgres');
          migrations += 1;
        } catch (error) {
          failures.push(String(error));
        } finally {
          await db.destroy();
          await adminQuery(`DROP SCHEMA ${schema} CASCADE`);
        }
      }
    };
    await Promise.all([starts(), starts()]);
    await drops;
    expect(failures).toEqual([]);
    expect(migrations).toBeGreaterThan(0);
  });

  it('introspects its own schema only, the migration tables when asked', async () => {
    const database = await createTestDatabase();
    opened.push(database);
    const other = await otherSchemas(3);
    try {
      await adminQuery(`CREATE TABLE ${other[0]}.only_elsewhere (id int)`);
      const tables = await database.db.introspection.getTables();
      const ownSchema = database.config.kind === 'postgres' ? database.config.searchPath : undefined;
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([ownSchema]));
      const names = tables.map((table) => table.name);
      expect(names).toContain('users');
      expect(names).not.toContain('only_elsewhere');
      expect(names).not.toContain('kysely_migration');
      const withKysely = await database.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(withKysely.map((table) => table.name)).toEqual(
        expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'users']),
      );
      const users = tables.find((table) => table.name === 'users')!;
      expect(users.columns.length).toBeGreaterThan(1);
      expect(users.columns.every((column) => typeof column.dataType === 'string' && typeof column.isNullable === 'boolean')).toBe(
        true,
      );
    } finally {
      for (const name of other) await adminQuery(`DROP SCHEMA ${name} CASCADE`);
    }
  });
});
