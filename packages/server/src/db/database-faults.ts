/**
 * Database failures that are not the request's fault and not a bug: the database is away
 * (restart, failover, a terminated connection, a busy SQLite file) or its disk is full. The
 * error handler answers them with 503 or 507 and a message a person can act on, instead of
 * a 500, and logs each cause once per episode instead of once per request.
 */
export type DatabaseFault = 'unavailable' | 'disk-full';

export const DATABASE_UNAVAILABLE = 'The database is unavailable. Try again in a moment.';
export const DISK_FULL = "The server's disk is full, so nothing was saved. Try again later.";

/** Seconds a client is told to wait (Retry-After) before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Connection-level network errors (node's `code`), as pg surfaces them. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs besides class 08 (connection exception): 57P01 admin_shutdown
 * (restart, pg_terminate_backend), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting
 * up, shutting down, in recovery), 53300 too_many_connections, 25006 read_only_sql_transaction
 * (a write reached a standby during a failover).
 */
const POSTGRES_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
const POSTGRES_DISK_FULL = new Set(['53100']);

/**
 * pg reports a dropped connection without a code; these are its fixed texts (pg 8:
 * client.js, pg-pool's connection timeout).
 */
const POSTGRES_CONNECTION_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
];

const SQLITE_UNAVAILABLE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_CANTOPEN', 'SQLITE_READONLY']);
const SQLITE_DISK_FULL = new Set(['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC']);

/** Which fault `error` is, or undefined for anything else (a bug, a bad request...). */
export function databaseFaultOf(error: unknown): DatabaseFault | undefined {
  for (const candidate of causes(error)) {
    const code = typeof candidate.code === 'string' ? candidate.code : undefined;
    if (code !== undefined) {
      if (POSTGRES_DISK_FULL.has(code) || SQLITE_DISK_FULL.has(code)) return 'disk-full';
      if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code) || code.startsWith('08')) return 'unavailable';
      if (SQLITE_UNAVAILABLE.has(code) || code.startsWith('SQLITE_BUSY')) return 'unavailable';
    }
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (POSTGRES_CONNECTION_MESSAGES.some((text) => message.startsWith(text))) return 'unavailable';
  }
  return undefined;
}

/** The error, its `cause` chain and an AggregateError's members (node's multi-address connect). */
function causes(error: unknown): Array<{ code?: unknown; message?: unknown }> {
  const found: Array<{ code?: unknown; message?: unknown }> = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 3 || typeof value !== 'object' || value === null) return;
    const record = value as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    found.push(record);
    visit(record.cause, depth + 1);
    if (Array.isArray(record.errors)) for (const member of record.errors.slice(0, 4)) visit(member, depth + 1);
  };
  visit(error, 0);
  return found;
}

/** Minimal logger shape (Fastify's and pino's). */
interface FaultLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

const FAULT_LOG_INTERVAL_MS = 60_000;

/**
 * Logs a fault when it starts and then at most once a minute while it lasts (with how many
 * answers it caused), so an outage under load is a few lines, not one per request.
 */
export function createFaultLog(log: FaultLogger, now: () => number = Date.now) {
  const state = new Map<DatabaseFault, { loggedAt: number; since: number }>();
  return (fault: DatabaseFault, error: unknown): void => {
    const at = now();
    const current = state.get(fault);
    if (current && at - current.loggedAt < FAULT_LOG_INTERVAL_MS) {
      current.since += 1;
      return;
    }
    const detail = { err: error, fault, answersSinceLastLine: current?.since ?? 0 };
    if (fault === 'disk-full') log.error(detail, 'database disk full: writes are refused with 507 until space is freed');
    else log.warn(detail, 'database unavailable: requests that need it are answered 503 until it is back');
    state.set(fault, { loggedAt: at, since: 0 });
  };
}
