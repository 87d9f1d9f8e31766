import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConfig } from '../config/app-config';
import type { Db } from '../db/schema';

/** How often a process writes its heartbeat row. */
export const DEFAULT_HEARTBEAT_MS = 5_000;
/** Heartbeats a process may miss before the others stop counting it as running. */
const LIVE_BEATS = 3;
/** Rows of processes this many beats silent are deleted (one that was killed leaves its row). */
const STALE_BEATS = 20;

export const SEVERAL_PROCESSES_WARNING = {
  sqlite:
    'Another Lockit process uses this SQLite file; rate limits are counted per process. Set REDIS_URL to share them, or run one process.',
  postgres:
    'Another Lockit process uses this database; rate limits are counted per process. Set REDIS_URL to share them, or run one process.',
} as const;

export interface ServerHeartbeatOptions {
  db: Db;
  log: FastifyBaseLogger;
  kind: DatabaseConfig['kind'];
  /** REDIS_URL is set: the processes share their rate limits, so several are fine. */
  sharesRateLimits: boolean;
  intervalMs?: number;
  /** Wall clock (not the app's `now`, which tests move by days). */
  clock?: () => number;
}

/**
 * A row per running process in `server_processes`, written every `intervalMs`, deleted on
 * close. Without REDIS_URL each process counts rate limits alone, so several processes on one
 * database multiply every limit: the process warns at start when another one is running, and
 * again whenever a new one appears. A row from this host whose process is gone (killed
 * without its close) is not counted, so a restart right after a crash does not warn.
 */
export function createServerHeartbeat(options: ServerHeartbeatOptions) {
  const { db, log } = options;
  const intervalMs = options.intervalMs ?? DEFAULT_HEARTBEAT_MS;
  const clock = options.clock ?? Date.now;
  const id = randomUUID();
  const host = hostname();
  const warnedAbout = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | undefined;
  /** Warned that beats fail: once until one succeeds again, not every few seconds. */
  let failing = false;

  async function beat(): Promise<void> {
    const now = clock();
    await db
      .insertInto('server_processes')
      .values({ id, host, pid: process.pid, started_at: now, heartbeat_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: now }))
      .execute();
    await db
      .deleteFrom('server_processes')
      .where('heartbeat_at', '<', now - STALE_BEATS * intervalMs)
      .execute();
    if (options.sharesRateLimits) return;
    const others = await db
      .selectFrom('server_processes')
      .select(['id', 'host', 'pid'])
      .where('id', '!=', id)
      .where('heartbeat_at', '>=', now - LIVE_BEATS * intervalMs)
      .execute();
    for (const other of others) {
      if (warnedAbout.has(other.id) || (other.host === host && !processExists(other.pid))) continue;
      warnedAbout.add(other.id);
      log.warn({ otherProcess: { host: other.host, pid: other.pid } }, SEVERAL_PROCESSES_WARNING[options.kind]);
    }
  }

  const beatLogged = () => {
    beating ??= beat()
      .then(
        () => {
          failing = false;
        },
        (error: unknown) => {
          if (!failing) log.warn({ err: error }, 'could not write this process heartbeat');
          failing = true;
        },
      )
      .finally(() => {
        beating = undefined;
      });
    return beating;
  };

  return {
    id,

    /** The first beat (and warning) now, then one every `intervalMs`; the timer never keeps the process alive. */
    async start(): Promise<void> {
      await beatLogged();
      timer = setInterval(() => void beatLogged(), intervalMs);
      timer.unref();
    },

    async stop(): Promise<void> {
      clearInterval(timer);
      await beating;
      await db
        .deleteFrom('server_processes')
        .where('id', '=', id)
        .execute()
        .catch((error: unknown) => log.warn({ err: error }, 'could not delete this process heartbeat'));
    },
  };
}

/** Whether a process of this host still runs (EPERM: it does, under another user). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
