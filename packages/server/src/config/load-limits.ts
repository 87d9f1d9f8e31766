/**
 * Limits that keep one client, or one flood, from taking the server from everyone else
 * (the fault tests; docs/operations.md gives the figures).
 */
export interface LoadLimits {
  /**
   * Milliseconds a request may take to arrive, headers and body (Node's requestTimeout and
   * headersTimeout); a trickling client is answered 408 and disconnected after it.
   */
  requestTimeoutMs: number;
  /**
   * Open connections one remote address may hold; the next is answered 503 and closed.
   * 0: no cap. Not applied behind a proxy (TRUST_PROXY): every client has the proxy's address.
   */
  maxConnectionsPerIp: number;
  /** Argon2 jobs run at once (auth/hashing-queue.ts). */
  hashingConcurrency: number;
  /** Argon2 jobs that may wait; past it sign-in, sign-up and change-password answer 503. */
  hashingQueueMax: number;
}

export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;
export const DEFAULT_MAX_CONNECTIONS_PER_IP = 64;
export const DEFAULT_HASHING_QUEUE_MAX = 64;
