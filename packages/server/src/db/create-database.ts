import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  type DatabaseIntrospector,
  SqliteDialect,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type { DatabaseConfig } from '../config/app-config';
import { CurrentSchemaIntrospector } from './current-schema-introspector';
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
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  return new CurrentSchemaPostgresDialect({ pool: withPreparedStatements(pool) });
}

/** Introspects only the schema Lockit lives in; see CurrentSchemaIntrospector for why. */
class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

/** Distinct statements one process prepares at most; any further ones run unprepared. */
const PREPARED_STATEMENT_LIMIT = 500;
/** Queries a statement may be prepared for: Kysely's DML, no `*` (see below), no DDL. */
const PREPARABLE = /^(select|insert|update|delete|with) /i;

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it anew each time; for
 * the session lookup that every authenticated request runs, that was most of the database's
 * work. Here each SQL text gets a name, and each connection prepares a named statement once
 * and then only binds values. The text holds placeholders only, so the set of texts is the
 * app's set of queries; the limit bounds it anyway.
 *
 * Never for a text with `*`: a prepared `select *` fails ("cached plan must not change
 * result type") once another process's migration adds a column, as a rolling deploy does.
 * Queries on the hot paths name their columns.
 */
function withPreparedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (sql: string): string | undefined => {
    if (!PREPARABLE.test(sql) || sql.includes('*')) return undefined;
    let name = names.get(sql);
    if (name === undefined && names.size < PREPARED_STATEMENT_LIMIT) {
      name = `lockit_${names.size}`;
      names.set(sql, name);
    }
    return name;
  };
  // One wrapper per pooled connection: Kysely keeps its own state per client object.
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query(sqlOrCursor: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>): unknown {
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as unknown as pg.Submittable);
      const values = parameters as unknown[];
      const name = nameOf(sqlOrCursor);
      return name === undefined ? client.query(sqlOrCursor, values) : client.query({ name, text: sqlOrCursor, values });
    }
    return { query, release: () => client.release() };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = wrap(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
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
