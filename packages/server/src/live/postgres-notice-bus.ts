import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { createListeners, parseBusMessage, type BusMessage, type NoticeBus } from './notice-bus';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;
/** NOTIFY payloads are capped at 8000 bytes; ours are a few dozen. */
const MAX_PAYLOAD = 7_000;

/**
 * The bus over PostgreSQL LISTEN/NOTIFY (PostgreSQL without Redis): one connection of its own
 * per process LISTENs (a pooled connection would be handed to other queries); NOTIFY goes
 * through the pool. A lost connection makes the bus down (streams end) and is retried with
 * backoff; it is up again once LISTEN has run.
 */
export function createPostgresNoticeBus(
  options: { url: string; channel: string; pool: pg.Pool },
  log: FastifyBaseLogger,
): NoticeBus {
  const messages = createListeners<[BusMessage]>();
  const down = createListeners<[]>();
  let client: pg.Client | undefined;
  let up = false;
  let closed = false;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const lost = (reason: string) => {
    const wasUp = up;
    up = false;
    client?.removeAllListeners();
    client?.on('error', () => {});
    void client?.end().catch(() => {});
    client = undefined;
    if (wasUp) {
      log.warn(`PostgreSQL LISTEN connection lost (${reason}): live vault notices stopped; clients catch up with the cursor`);
      down.emit();
    }
    if (!closed && !retryTimer) {
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        void connect();
      }, retryMs);
      retryTimer.unref();
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    }
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: options.url, keepAlive: true, connectionTimeoutMillis: 5_000 });
    client = next;
    next.on('error', (error) => lost(error.message));
    next.on('end', () => lost('ended'));
    next.on('notification', (notification) => {
      const message = notification.payload ? parseBusMessage(notification.payload) : null;
      if (message) messages.emit(message);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
      if (closed) return void (await next.end());
      up = true;
      retryMs = RETRY_MIN_MS;
    } catch (error) {
      if (client === next) lost(error instanceof Error ? error.message : String(error));
    }
  }

  void connect();
  return {
    kind: 'postgres',
    publish(message) {
      const payload = JSON.stringify(message);
      if (payload.length > MAX_PAYLOAD) return;
      options.pool.query('SELECT pg_notify($1, $2)', [options.channel, payload]).catch(() => {
        // Lost with the database; streams end when the LISTEN connection sees it.
      });
    },
    subscribe: messages.add,
    onDown: down.add,
    isUp: () => up,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      up = false;
      const last = client;
      client = undefined;
      last?.removeAllListeners();
      last?.on('error', () => {});
      await last?.end().catch(() => {});
    },
  };
}

/** Waits until the LISTEN runs (start-up), at most `ms`. */
export async function waitUntilUp(bus: NoticeBus, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!bus.isUp() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}
