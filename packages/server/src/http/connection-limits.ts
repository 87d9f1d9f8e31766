import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { LoadLimits } from '../config/load-limits';

/**
 * Longer than common proxies' idle keep-alive (nginx 60 s, AWS ALB 60 s), so the proxy, not
 * this server, closes an idle upstream connection and never races a request into a closing one.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** A socket with no traffic either way (a client that stops reading an answer) is closed after this. */
export const SOCKET_IDLE_TIMEOUT_MS = 75_000;

/**
 * Fastify's (and Node's) timeouts for `Fastify({ ... })`. Fastify turns Node's request timeout
 * off by default, so a client trickling a body held its connection forever; here the whole
 * request, headers and body, must arrive within `requestTimeoutMs` (408, then closed).
 * Node checks for late requests every `connectionsCheckingInterval` (30 s by default, which
 * would let a 30 s limit run to 60 s).
 */
export function serverTimeouts(limits: LoadLimits) {
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: SOCKET_IDLE_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.requestTimeoutMs / 4))),
    },
  };
}

export const TOO_MANY_CONNECTIONS = 'Too many open connections from your address. Close some and try again.';

const REFUSAL = (() => {
  const body = JSON.stringify({ message: TOO_MANY_CONNECTIONS });
  return (
    `HTTP/1.1 503 ${STATUS_CODES[503]}\r\nConnection: close\r\nRetry-After: 5\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
})();

/**
 * Caps the open connections of each remote address: one client holding thousands of slow
 * connections made every new connection fail. Counted on the socket's own address, before
 * any byte is read (a trickling client never gets as far as a request); the connection past
 * the cap gets a 503 and is closed. Behind a proxy every client shares the proxy's address,
 * so with `trustProxy` the cap is off and the proxy must limit per client.
 */
export function installConnectionCap(
  server: Server,
  limits: Pick<LoadLimits, 'maxConnectionsPerIp'>,
  trustProxy: boolean,
  log: FastifyBaseLogger,
): void {
  const max = limits.maxConnectionsPerIp;
  if (max === 0) return;
  if (trustProxy) {
    log.info('MAX_CONNECTIONS_PER_IP is not applied behind a proxy (TRUST_PROXY): limit connections per client there.');
    return;
  }
  const open = new Map<string, number>();
  let warnedAt = 0;
  // Before Node's own listener, so a refused socket is ended before it is parsed.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        log.warn({ max }, 'connections refused: one address holds the most open connections allowed');
      }
      socket.end(REFUSAL, () => socket.destroy());
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
