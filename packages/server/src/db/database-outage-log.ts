import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { postgresPoolOf } from './create-database';
import type { Database } from './schema';

/**
 * Logs PostgreSQL connection loss once per outage: the first idle connection that dies
 * (restart, failover, pg_terminate_backend) says so, the rest of that outage's ten stay
 * quiet, and the first new connection afterwards says the database is back.
 */
export function watchPostgresPool(db: Kysely<Database>, log: FastifyBaseLogger): void {
  const pool = postgresPoolOf(db);
  if (!pool) return;
  let lostAt: number | undefined;
  pool.on('error', (error: Error) => {
    if (lostAt !== undefined) return;
    lostAt = Date.now();
    // The error only: pg's errors can carry the client, whose state holds every query text.
    log.warn({ error: error.message }, 'PostgreSQL connection lost: reconnecting on the next request');
  });
  pool.on('connect', () => {
    if (lostAt === undefined) return;
    log.info({ afterMs: Date.now() - lostAt }, 'PostgreSQL connection open again');
    lostAt = undefined;
  });
}
