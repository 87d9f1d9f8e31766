import { Gauge, type Registry } from 'prom-client';
import { postgresPoolOf } from '../db/create-database';
import type { Db } from '../db/schema';

/**
 * Gauges of the PostgreSQL connection pool, read at each scrape. SQLite has one connection in
 * the process and no pool, so it gets none.
 */
export function registerDatabasePoolMetrics(registry: Registry, db: Db): void {
  const pool = postgresPoolOf(db);
  if (!pool) return;
  const registers = [registry];
  new Gauge({
    name: 'lockit_db_pool_connections',
    help: 'Open connections of the PostgreSQL pool, busy or idle.',
    registers,
    collect() {
      this.set(pool.totalCount);
    },
  });
  new Gauge({
    name: 'lockit_db_pool_idle_connections',
    help: 'Open connections of the PostgreSQL pool waiting for a query.',
    registers,
    collect() {
      this.set(pool.idleCount);
    },
  });
  new Gauge({
    name: 'lockit_db_pool_waiting_requests',
    help: 'Queries waiting for a free connection of the PostgreSQL pool.',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });
  new Gauge({
    name: 'lockit_db_pool_max_connections',
    help: 'Most connections the PostgreSQL pool opens.',
    registers,
    collect() {
      this.set(pool.options.max);
    },
  });
}
