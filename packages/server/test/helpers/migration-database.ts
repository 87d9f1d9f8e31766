import { Migrator, sql, type Kysely } from 'kysely';
import { migrations } from '../../src/db/migrations/index';
import { migrateToLatest } from '../../src/db/migrate';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './test-database';

/** The database without the current schema's types: an older migration's tables and columns. */
export type RawDb = Kysely<Record<string, Record<string, unknown>>>;

export interface MigratedDatabase extends TestDatabase {
  /** The same connection as `db`, untyped, for rows the current schema types do not describe. */
  raw: RawDb;
}

/**
 * A fresh database of this run's kind (test-database.ts) brought only up to `from`, given
 * `seed`'s rows in that old schema, then migrated to the latest exactly as a server start does
 * (migrateToLatest): what a migration test reads back is what the later migrations made of rows
 * written before them. On PostgreSQL the migration bookkeeping stays in the test's own schema.
 */
export async function createMigratedDatabase(
  from: keyof typeof migrations,
  seed: (raw: RawDb) => Promise<void>,
): Promise<MigratedDatabase> {
  const database = await createTestDatabase({ migrate: false });
  const { db } = database;
  const raw = db as unknown as RawDb;
  const schema =
    TEST_DB_KIND === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo(from);
  if (error) throw error;
  await seed(raw);
  await migrateToLatest(db, database.config.kind);
  return { ...database, raw };
}

/**
 * An account row of the columns 0001 made (later migrations only add columns that may be null
 * or have a default, so it fits any schema): verified, with the floor KDF parameters and a salt
 * and wrapped key of its own, so a migration that mixed accounts' key material up would show.
 */
export const oldUser = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  username: id,
  username_folded: id,
  email: `${id}@example.test`,
  email_folded: `${id}@example.test`,
  fullname: id,
  auth_hash: 'hash',
  kdf_algorithm: 'argon2id',
  kdf_memory_kib: 19456,
  kdf_iterations: 2,
  kdf_parallelism: 1,
  salt: `salt-${id}`,
  protected_key: `v1.key-${id}`,
  verified_at: 1,
  created_at: 1,
  updated_at: 1,
  ...extra,
});

/** Rows in one order whatever order the database returns them in: by account, then id. */
export const sortedByAccount = <T extends { id: string; user_id: string }>(rows: T[]) =>
  [...rows].sort((a, b) => `${a.user_id}${a.id}`.localeCompare(`${b.user_id}${b.id}`));

/** bigint columns come back as strings from PostgreSQL: compare values as numbers where they are numeric. */
export const normalised = (rows: Array<Record<string, unknown>>) =>
  rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [key, typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value]),
    ),
  );

/** The error a promise rejects with, or undefined when it resolves. */
export const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
