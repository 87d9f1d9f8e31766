import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { DatabaseConfig } from '../config/app-config';
import type { Database } from './schema';

const INT8_OID = 20;

/** The one place that chooses the SQL dialect. */
export function createDatabase(config: DatabaseConfig): Kysely<Database> {
  if (config.kind === 'sqlite') return new Kysely<Database>({ dialect: sqliteDialect(config.file) });
  return new Kysely<Database>({ dialect: postgresDialect(config.url, config.searchPath) });
}

function sqliteDialect(file: string): SqliteDialect {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return new SqliteDialect({ database: withStatementCache(database) });
}

const STATEMENT_CACHE_SIZE = 200;

/**
 * Kysely prepares every query anew; parsing and planning was a tenth of the time of an
 * authenticated request. Statements are reused per SQL text (the text holds no values, only
 * placeholders). Safe because Kysely runs one query at a time on its single connection.
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}

function postgresDialect(url: string, searchPath?: string): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(searchPath ? { options: `-c search_path=${quoteIdentifier(searchPath)}` } : {}),
    // Times are epoch milliseconds in int8 columns: well inside Number's exact range.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  return new PostgresDialect({ pool });
}

function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Invalid schema name: ${name}`);
  return name;
}

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
