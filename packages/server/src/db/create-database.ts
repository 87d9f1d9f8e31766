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
import { describeSqliteOpenFailure } from './data-directory';
import type { Database } from './schema';

const INT8_OID = 20;
/** How long a request waits for a PostgreSQL connection (new or from the full pool). */
const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;

/** The pg pool behind each PostgreSQL database, for its gauges and its error events. */
const postgresPools = new WeakMap<Kysely<Database>, pg.Pool>();

/** The one place that chooses the SQL dialect. */
export function createDatabase(config: DatabaseConfig): Kysely<Database> {
  if (config.kind === 'sqlite') return new Kysely<Database>({ dialect: sqliteDialect(config.file) });
  const pool = postgresPool(config.url, config.searchPath);
  // An idle pooled client whose connection ends (a restart, a failover, pg_terminate_backend)
  // emits 'error' on the pool; with no listener Node would exit. pg has already dropped that
  // client, and the next query opens a new connection, so nothing more is needed here; the
  // app logs these (watchPostgresPool in db/database-outage-log.ts).
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool: withPreparedStatements(pool) }) });
  postgresPools.set(db, pool);
  return db;
}

/** The pg pool of a database made by createDatabase; undefined for SQLite. */
export function postgresPoolOf(db: Kysely<Database>): pg.Pool | undefined {
  return postgresPools.get(db);
}

function sqliteDialect(file: string): SqliteDialect {
  const database = openSqlite(file);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return new SqliteDialect({ database: withStatementCache(database) });
}

/** Opens the file in WAL mode, or throws saying what is wrong with its folder. */
function openSqlite(file: string): SQLite.Database {
  try {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const database = new SQLite(file);
    // WAL needs the folder writable (the -wal and -shm files): a read-only one fails here.
    database.pragma('journal_mode = WAL');
    return database;
  } catch (error) {
    throw new Error(describeSqliteOpenFailure(file, error), { cause: error });
  }
}

const STATEMENT_CACHE_SIZE = 200;
const NOTHING_CHANGED = { changes: 0, lastInsertRowid: 0 };

/**
 * Kysely prepares every query anew; parsing and planning was a tenth of the time of an
 * authenticated request. Statements are reused per SQL text (the text holds no values, only
 * placeholders). Safe because Kysely runs one query at a time on its single connection.
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  // SQLite ends a transaction by itself when a write fails for want of space (SQLITE_FULL) or
  // on an I/O error; Kysely then sends ROLLBACK, which fails ("cannot rollback - no transaction
  // is active") and replaces the real error. Rolling back only what is open keeps the real one.
  const rollback = { reader: false, run: () => (database.inTransaction ? database.prepare('rollback').run() : NOTHING_CHANGED) };
  return {
    close: () => database.close(),
    prepare(sql: string) {
      if (sql === 'rollback') return rollback as unknown as SqliteStatement;
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

function postgresPool(url: string, searchPath?: string): pg.Pool {
  return new pg.Pool({
    connectionString: url,
    max: 10,
    // While the database is away a new connection fails at once (refused); this bounds the
    // other cases (a host that drops packets, a full pool) so a request gets its 503 quickly.
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    // Finds a connection that died silently (a failover to another host) within a minute.
    keepAlive: true,
    ...(searchPath ? { options: `-c search_path=${quoteIdentifier(searchPath)}` } : {}),
    // Times are epoch milliseconds in int8 columns: well inside Number's exact range.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
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
        // A checked-out client has no listener of the pool's: if its connection dies between
        // two queries (a restart while Kysely holds it for a transaction), the 'error' event
        // would end the process. The client then fails its next query, which answers 503, and
        // the pool drops it on release (it is no longer queryable).
        client.on('error', () => {});
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
