import { EventSource } from 'eventsource';
import type { ApiClient } from './api-client';

/**
 * Node has no EventSource: the `eventsource` package is the WHATWG one over fetch, here with
 * this browser stand-in's cookies and client address, as a page's EventSource sends its own.
 * It reconnects by itself like a browser's does.
 */
export function eventSourceOf(client: ApiClient): (url: string) => EventSource {
  return (url) =>
    new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: {
            ...init.headers,
            ...(client.cookies.size > 0 ? { cookie: client.cookieHeader } : {}),
            ...(client.forwardedFor ? { 'x-forwarded-for': client.forwardedFor } : {}),
          },
        }),
    });
}

export interface StreamEvent {
  type: string;
  data: string;
  /** When it arrived (performance.now()), for latency figures. */
  at: number;
}

/**
 * One open event stream of the vault, recording every event it receives (and its errors, with
 * their HTTP status) so a test can wait for the one it expects. It does not reconnect: a test
 * sees exactly one connection's life.
 */
export function recordEventStream(client: ApiClient, path: string) {
  const events: StreamEvent[] = [];
  const errors: Array<{ status: number | undefined }> = [];
  const waiting = new Set<() => void>();
  const source = eventSourceOf(client)(`${client.baseUrl}${path}`);
  const record = (type: string) => (event: MessageEvent) => {
    events.push({ type, data: String(event.data), at: performance.now() });
    for (const wake of waiting) wake();
  };
  for (const type of ['ready', 'change', 'end']) source.addEventListener(type, record(type));
  source.onerror = (event) => {
    errors.push({ status: event.code });
    // Only this one connection's life: never reconnect.
    source.close();
    for (const wake of waiting) wake();
  };
  return {
    events,
    errors,
    /** The first event (from `from` on) that `match` accepts; rejects after `timeoutMs`. */
    waitFor(match: (event: StreamEvent) => boolean, timeoutMs = 10_000, from = 0): Promise<StreamEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(match);
          if (found) {
            waiting.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)} ${JSON.stringify(errors)}`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    /** Resolves once the connection failed or was refused (its HTTP status, if any). */
    waitForError(timeoutMs = 10_000): Promise<{ status: number | undefined }> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (errors.length === 0) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(errors[0]!);
        };
        const timer = setTimeout(() => reject(new Error(`no error within ${timeoutMs} ms`)), timeoutMs);
        waiting.add(check);
        check();
      });
    },
    close: () => source.close(),
  };
}

export type RecordedEventStream = ReturnType<typeof recordEventStream>;
