import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { postgresPoolOf } from '../db/create-database';
import { padInList } from '../db/padded-in-list';
import type { Db } from '../db/schema';
import { createMemoryNoticeBus, type NoticeBus } from './notice-bus';
import { createPostgresNoticeBus, waitUntilUp } from './postgres-notice-bus';
import { createRedisNoticeBus } from './redis-notice-bus';
import { createVaultStreams, type LiveSessions } from './vault-streams';

/** How long start waits for the LISTEN connection before serving (streams are refused until it is up). */
const LISTEN_READY_MS = 2_000;
const SESSION_CHUNK = 500;

/**
 * The live notices of decision 0066, on the bus the deployment has: Redis pub/sub when
 * REDIS_URL is set (it already links the processes), else PostgreSQL LISTEN/NOTIFY, else
 * this process alone (SQLite serves one process).
 */
export async function openLiveSync(
  config: AppConfig,
  db: Db,
  redis: Redis | undefined,
  now: () => number,
  log: FastifyBaseLogger,
) {
  const bus = await openBus(config, db, redis, log);
  const liveSessions: LiveSessions = async (ids) => {
    const at = now();
    const alive = new Set<string>();
    for (let from = 0; from < ids.length; from += SESSION_CHUNK) {
      const rows = await db
        .selectFrom('sessions')
        .select('id')
        .where('id', 'in', padInList(ids.slice(from, from + SESSION_CHUNK)))
        .where('absolute_expires_at', '>', at)
        .where('refresh_expires_at', '>', at)
        .execute();
      for (const row of rows) alive.add(row.id);
    }
    return alive;
  };
  return createVaultStreams(bus, liveSessions, config.liveSync, log);
}

async function openBus(config: AppConfig, db: Db, redis: Redis | undefined, log: FastifyBaseLogger): Promise<NoticeBus> {
  const channel = channelOf(config);
  if (redis) return createRedisNoticeBus(redis, channel, log);
  const pool = postgresPoolOf(db);
  if (config.database.kind === 'postgres' && pool) {
    const bus = createPostgresNoticeBus({ url: config.database.url, channel, pool }, log);
    await waitUntilUp(bus, LISTEN_READY_MS);
    return bus;
  }
  return createMemoryNoticeBus();
}

/**
 * One channel per database: processes of another Lockit on the same Redis or PostgreSQL server
 * (another database or schema) never hear these. A short digest, since a PostgreSQL channel is
 * an identifier of at most 63 bytes; it names no secret (the URL's password is not in it).
 */
function channelOf(config: AppConfig): string {
  const where =
    config.database.kind === 'postgres'
      ? `${withoutPassword(config.database.url)}|${config.database.searchPath ?? ''}`
      : `sqlite:${config.database.file}`;
  return `lockit_vault_changes_${createHash('sha256').update(where).digest('hex').slice(0, 16)}`;
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '';
  }
}
