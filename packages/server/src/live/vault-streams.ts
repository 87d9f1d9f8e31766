import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { VAULT_EVENT, type ChangeNotice, type StreamEnd } from '@lockit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { NoticeBus } from './notice-bus';

export interface VaultStreamsOptions {
  /** A comment line this often keeps proxies from closing an idle stream; sessions are re-checked as often. */
  heartbeatMs: number;
  /** Open streams per account across this process; one more is refused (429). */
  perAccount: number;
}

/** Of these session ids, the ones still signed in (throws when the database cannot say). */
export type LiveSessions = (sessionIds: readonly string[]) => Promise<Set<string>>;

interface Stream {
  userId: string;
  sessionId: string;
  raw: ServerResponse;
}

/** Bytes a stream may have waiting for a client that does not read; past them it is cut. */
const MAX_BUFFERED = 64 * 1024;

/**
 * The open event streams of this process (GET /api/vault/events, decision 0066) and what
 * feeds them: each bus message about an account goes to that account's streams; a heartbeat
 * comment keeps them alive and re-checks that their sessions still exist, so a session ended
 * anywhere (logout, "end other sessions", a password change in another process) closes its
 * streams within one heartbeat, or at once when the ending process publishes a `recheck`.
 *
 * Invariants: a stream carries only ids and sequence numbers; every stream ends with an `end`
 * event naming why (signed-out, unavailable, closing), never silently, so a client knows to
 * catch up with the cursor; nothing here waits on a client (a client that stops reading is cut).
 */
export function createVaultStreams(
  bus: NoticeBus,
  liveSessions: LiveSessions,
  options: VaultStreamsOptions,
  log: FastifyBaseLogger,
) {
  const byUser = new Map<string, Set<Stream>>();
  const all = () => [...byUser.values()].flatMap((streams) => [...streams]);

  function write(stream: Stream, text: string): void {
    if (stream.raw.destroyed) return;
    stream.raw.write(text);
    if (stream.raw.writableLength > MAX_BUFFERED) stream.raw.destroy();
  }

  function remove(stream: Stream): void {
    const streams = byUser.get(stream.userId);
    streams?.delete(stream);
    if (streams?.size === 0) byUser.delete(stream.userId);
  }

  function end(stream: Stream, reason: StreamEnd['reason']): void {
    remove(stream);
    write(stream, `event: ${VAULT_EVENT.end}\ndata: ${JSON.stringify({ reason })}\n\n`);
    stream.raw.end();
  }

  function endAll(reason: StreamEnd['reason']): void {
    for (const stream of all()) end(stream, reason);
  }

  /** Ends the streams of `streams` whose session is gone; a database that cannot say ends them all. */
  async function recheck(streams: Stream[]): Promise<void> {
    if (streams.length === 0) return;
    let alive: Set<string>;
    try {
      alive = await liveSessions([...new Set(streams.map((stream) => stream.sessionId))]);
    } catch (error) {
      log.warn({ err: error }, 'Live vault streams: the database did not answer; streams end, clients catch up later');
      for (const stream of streams) end(stream, 'unavailable');
      return;
    }
    for (const stream of streams) if (!alive.has(stream.sessionId)) end(stream, 'signed-out');
  }

  const unsubscribe = bus.subscribe((message) => {
    const streams = byUser.get(message.userId);
    if (!streams) return;
    if (message.kind === 'recheck') return void recheck([...streams]);
    const text = `id: ${message.notice.seq}\nevent: ${VAULT_EVENT.change}\ndata: ${JSON.stringify(message.notice)}\n\n`;
    for (const stream of streams) write(stream, text);
  });
  const offDown = bus.onDown(() => endAll('unavailable'));
  const heartbeat = setInterval(() => {
    const streams = all();
    for (const stream of streams) write(stream, ': heartbeat\n\n');
    void recheck(streams);
  }, options.heartbeatMs);
  heartbeat.unref();

  return {
    /**
     * Opens a stream on `raw` (the hijacked reply) for a signed-in session, announcing the
     * cursor the vault was at: a client catches up from there. Refused while the bus is down
     * (a stream that may miss notices would leave a client silently behind) or past the
     * account's cap.
     */
    open(
      userId: string,
      sessionId: string,
      raw: ServerResponse,
      cursor: number,
      headers: OutgoingHttpHeaders = {},
    ): 'opened' | 'too-many' | 'unavailable' {
      if (!bus.isUp()) return 'unavailable';
      const streams = byUser.get(userId) ?? new Set<Stream>();
      if (streams.size >= options.perAccount) return 'too-many';
      const stream: Stream = { userId, sessionId, raw };
      streams.add(stream);
      byUser.set(userId, streams);
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        // The connection ends with the stream: a socket left idle after it would hold a server's close.
        connection: 'close',
      });
      // The client's reconnection delay (EventSource reads `retry:`), then where the vault is.
      raw.write(`retry: 3000\n\nevent: ${VAULT_EVENT.ready}\ndata: ${JSON.stringify({ seq: cursor })}\n\n`);
      raw.once('close', () => remove(stream));
      return 'opened';
    },

    /** Publishes a committed change of `userId`'s vault to every process's streams. */
    notify(userId: string, notice: ChangeNotice): void {
      bus.publish({ kind: 'change', userId, notice });
    },

    /** A session of `userId` ended here: every process re-checks that account's streams now. */
    sessionsEnded(userId: string): void {
      bus.publish({ kind: 'recheck', userId });
    },

    count: (userId?: string) => (userId ? (byUser.get(userId)?.size ?? 0) : all().length),

    /** Ends every stream (the server is closing) and stops listening. */
    async close(): Promise<void> {
      clearInterval(heartbeat);
      unsubscribe();
      offDown();
      endAll('closing');
      await bus.close();
    },
  };
}

export type VaultStreams = ReturnType<typeof createVaultStreams>;
