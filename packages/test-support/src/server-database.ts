import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type DatabaseKind = 'sqlite' | 'postgres';

/** The PostgreSQL server tests and benches use; each gets a schema of its own on it. */
export const PG_URL = process.env.LOCKIT_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A database for a server process: a SQLite file in a temp folder, or a fresh PostgreSQL schema. */
export interface ServerDatabase {
  kind: DatabaseKind;
  /** The temp folder: DATA_DIR of the server, and where the SQLite file lives. */
  dataDir: string;
  /** DATABASE_URL as the server takes it. */
  url: string;
  /** DATA_DIR and DATABASE_URL for the server's environment. */
  env: { DATA_DIR: string; DATABASE_URL: string };
  sqliteFile: string;
  /** The PostgreSQL schema (unused on SQLite). */
  schema: string;
  /**
   * Runs a query as the test, outside any server (SQLite: read-only, a connection per call;
   * PostgreSQL: one connection kept until `drop`, so temporary tables last between calls).
   */
  query<Row extends object>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Drops the schema and removes the folder. */
  drop(): Promise<void>;
}

export async function createServerDatabase(kind: DatabaseKind, prefix = 'lockit'): Promise<ServerDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const sqliteFile = join(dataDir, 'lockit.sqlite');
  const schema = `${prefix.replace(/\W/g, '_')}_${randomBytes(5).toString('hex')}`;
  let url = sqliteFile;
  if (kind === 'postgres') {
    await adminQuery(`CREATE SCHEMA ${schema}`);
    const withPath = new URL(PG_URL);
    withPath.searchParams.set('options', `-c search_path=${schema}`);
    url = withPath.toString();
  }
  let connection: pg.Client | undefined;
  const pgConnection = async () => {
    if (!connection) {
      connection = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
      await connection.connect();
    }
    return connection;
  };
  return {
    kind,
    dataDir,
    url,
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    sqliteFile,
    schema,
    async query<Row extends object>(text: string, values: unknown[] = []): Promise<Row[]> {
      if (kind === 'sqlite') {
        const { default: SQLite } = await import('better-sqlite3');
        const connection = new SQLite(sqliteFile, { readonly: true });
        try {
          return connection.prepare(text).all(...values) as Row[];
        } finally {
          connection.close();
        }
      }
      return (await (await pgConnection()).query(text, values)).rows as Row[];
    },
    async drop() {
      await connection?.end();
      if (kind === 'postgres') await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One statement on the PostgreSQL test server, outside any schema of a test. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
