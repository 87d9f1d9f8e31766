import { changeNoticeSchema, streamEndSchema, VAULT_EVENT, type ChangeNotice, type StreamEnd } from '@lockit/contract';

/** The part of the platform's EventSource the core uses (a browser's, or a Node stand-in). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
  close(): void;
  /** 2 (CLOSED): the source gave up and will not reconnect by itself. */
  readonly readyState: number;
  onerror: ((event: never) => unknown) | null;
}

/** Opens the stream at `url` with the platform's credentials (cookies). */
export type OpenEventSource = (url: string) => EventSourceLike;

const CLOSED = 2;

export interface LiveChangesOptions {
  open: OpenEventSource;
  /** The events route's full URL (the API's base + apiPaths.vaultEvents). */
  url: string;
  /** The catch-up to run on each (coalesced) notice and at each (re)connection, e.g. VaultSync.catchUp. */
  catchUp: () => Promise<unknown>;
  /** A catch-up failed (the network, or a refused check: the caller's catch-up reports it). */
  onError?: (error: unknown) => void;
  /** The stream ended for good: the session is over. Nothing reopens it. */
  onSignedOut?: () => void;
  /** A notice's `reset`: every ciphertext changed (a key rotation); the caller reopens its keys. */
  onReset?: (notice: ChangeNotice) => void;
  /** Waits this long after a notice for more before catching up (a burst is one request). */
  coalesceMs?: number;
  /** Waits this long before reopening a stream the server ended or refused (it doubles, to a minute). */
  retryMs?: number;
}

export interface LiveChanges {
  /** Stops following: the stream closes and no catch-up starts. */
  close(): void;
}

const MAX_RETRY_MS = 60_000;

/**
 * Follows a vault live (decision 0066): opens the server's event stream and, on each notice,
 * runs the catch-up through the change cursor, so what the device shows is always a vault that
 * passed the whole-vault check, never the notice's word. Notices carry ids and sequence numbers
 * only, and are treated as hints: a missing one costs freshness, a forged one a request.
 *
 * - Bursts coalesce: notices within `coalesceMs` make one catch-up, and the catch-up itself
 *   queues at most one more while it runs.
 * - At each `ready` (a new or re-opened stream) it catches up: changes made while no stream was
 *   open are found through the cursor, not lost.
 * - `end` with `signed-out` stops for good; `unavailable` or `closing` (the server lost its
 *   notice bus, or is restarting), or a source the platform gave up on, catch up once and reopen
 *   after `retryMs`, doubling up to a minute. Nothing waits forever on a dead stream.
 */
export function liveChanges(options: LiveChangesOptions): LiveChanges {
  const coalesceMs = options.coalesceMs ?? 50;
  const firstRetryMs = options.retryMs ?? 3_000;
  let retryMs = firstRetryMs;
  let source: EventSourceLike | null = null;
  let closed = false;
  let burst: ReturnType<typeof setTimeout> | undefined;
  let reopen: ReturnType<typeof setTimeout> | undefined;

  const catchUp = () => {
    if (closed) return;
    options.catchUp().catch((error: unknown) => options.onError?.(error));
  };
  const soon = () => {
    if (burst !== undefined || closed) return;
    burst = setTimeout(() => {
      burst = undefined;
      catchUp();
    }, coalesceMs);
  };
  const retry = () => {
    source?.close();
    source = null;
    if (closed || reopen !== undefined) return;
    catchUp();
    reopen = setTimeout(() => {
      reopen = undefined;
      connect();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  function connect(): void {
    if (closed) return;
    const opened = options.open(options.url);
    source = opened;
    opened.addEventListener(VAULT_EVENT.ready, () => {
      retryMs = firstRetryMs;
      catchUp();
    });
    opened.addEventListener(VAULT_EVENT.change, (event) => {
      const notice = parsed(changeNoticeSchema, event.data);
      if (!notice) return;
      if (notice.reset) options.onReset?.(notice);
      soon();
    });
    opened.addEventListener(VAULT_EVENT.end, (event) => {
      const end: StreamEnd | null = parsed(streamEndSchema, event.data);
      if (end?.reason === 'signed-out') {
        closed = true;
        opened.close();
        options.onSignedOut?.();
        return;
      }
      retry();
    });
    // The platform reconnects by itself after a dropped connection; once it gives up (a refusal,
    // 429 or 503), this reopens later.
    opened.onerror = () => {
      if (opened.readyState === CLOSED && source === opened) retry();
    };
  }

  connect();
  return {
    close() {
      closed = true;
      clearTimeout(burst);
      clearTimeout(reopen);
      source?.close();
      source = null;
    },
  };
}

function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  data: unknown,
): T | null {
  if (typeof data !== 'string') return null;
  try {
    const result = schema.safeParse(JSON.parse(data));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
