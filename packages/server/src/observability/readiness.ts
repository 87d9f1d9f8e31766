import { DEFAULT_MIGRATION_TABLE, sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from '../db/schema';
import { migrations } from '../db/migrations/index';

/** How long each check may take before it counts as failed. */
export const READINESS_TIMEOUT_MS = 1_000;

export type CheckName = 'database' | 'migrations' | 'redis';

/**
 * One check's outcome. `message` is a fixed sentence (plus migration names, which are public):
 * never an error's text, which could name a host, a user or a connection string.
 */
export type CheckResult = { ok: true } | { ok: false; message: string; cause?: unknown };

export interface Readiness {
  ready: boolean;
  checks: Partial<Record<CheckName, CheckResult>>;
}

export interface ReadinessDeps {
  db: Db;
  /** Checked only when REDIS_URL configured one. */
  redis: Redis | undefined;
}

/**
 * Ready when the database answers a trivial query, every migration this version knows is
 * applied, and Redis (when configured) answers PING, each within READINESS_TIMEOUT_MS.
 */
export async function checkReadiness({ db, redis }: ReadinessDeps): Promise<Readiness> {
  const [databaseChecks, redisCheck] = await Promise.all([
    checkDatabase(db),
    redis ? checkRedis(redis) : Promise.resolve(undefined),
  ]);
  const checks: Readiness['checks'] = { ...databaseChecks, ...(redisCheck ? { redis: redisCheck } : {}) };
  return { ready: Object.values(checks).every((check) => check.ok), checks };
}

async function checkDatabase(db: Db): Promise<Pick<Readiness['checks'], 'database' | 'migrations'>> {
  const database = await withinTimeout(
    sql`select 1`.execute(db),
    'The database did not answer within 1 second.',
    'The database could not run a query.',
  );
  if (!database.ok) return { database, migrations: { ok: false, message: 'Not checked: the database is not answering.' } };
  return { database: { ok: true }, migrations: await checkMigrations(db) };
}

async function checkMigrations(db: Db): Promise<CheckResult> {
  // Unqualified: on PostgreSQL the table is in the current schema, as migrate.ts puts it.
  const applied = await withinTimeout(
    sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db),
    'The database did not list its migrations within 1 second.',
    'The list of applied migrations could not be read: was the database ever migrated?',
  );
  if (!applied.ok) return applied;
  const done = new Set(applied.value.rows.map((row) => row.name));
  const missing = Object.keys(migrations).filter((name) => !done.has(name));
  if (missing.length === 0) return { ok: true };
  return { ok: false, message: `Migrations not applied: ${missing.join(', ')}. Restart the server to apply them.` };
}

async function checkRedis(redis: Redis): Promise<CheckResult> {
  const pong = await withinTimeout(
    redis.ping(),
    'Redis did not answer PING within 1 second.',
    'Redis is unreachable (rate limits fall back to this process).',
  );
  return pong.ok ? { ok: true } : pong;
}

type Timed<T> = { ok: true; value: T } | { ok: false; message: string; cause?: unknown };

async function withinTimeout<T>(work: Promise<T>, timedOut: string, failed: string): Promise<Timed<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Timed<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, message: timedOut }), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work.then((value): Timed<T> => ({ ok: true, value })), timeout]);
  } catch (cause) {
    return { ok: false, message: failed, cause };
  } finally {
    clearTimeout(timer);
  }
}
