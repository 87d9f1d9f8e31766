/**
 * The ways a call to the API can fail, the same for every client. Screens turn them into the
 * texts of the spec's error catalogue; nothing here shows anything to the person.
 */

/** The server answered with a status outside 2xx. `serverMessage` is its `{ message }`, if any. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly serverMessage: string | undefined;
  /** The parsed JSON body (or null), for answers that carry data with an error (e.g. 403 unverified). */
  readonly body: unknown;
  /** Seconds the server asked to wait before trying again (its Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, serverMessage: string | undefined, body: unknown, retryAfterSeconds?: number) {
    super(serverMessage ?? `The server answered with status ${status}.`);
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * A call that needs a session, not sent because this client surely has none. It means what
 * the server's 401 would have meant, so callers that treat a 401 as "signed out" need no
 * second case.
 */
export class NoSessionError extends ApiError {
  constructor() {
    super(401, undefined, null);
    this.message = 'Not signed in: the request was not sent.';
  }
}

/** No answer at all: offline, DNS, CORS, connection reset. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  /** The platform said it had no network when the call failed (a browser's navigator.onLine false). */
  readonly offline: boolean;
  constructor(offline = false) {
    super(
      offline ? 'The browser is offline: the request could not be sent.' : 'The server could not be reached (network error).',
    );
    this.offline = offline;
  }
}

/** A 2xx answer whose body does not match the contract: treated as no usable answer. */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  readonly status: number;
  constructor(status: number) {
    super(`The server sent an answer Lockit does not understand (status ${status}).`);
    this.status = status;
  }
}

/** The server's own sentence when it sent one, else undefined. */
export function serverMessageOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

/**
 * Retry-After as whole seconds (RFC 9110: a number of seconds or an HTTP date), at least 1;
 * undefined when absent or unreadable.
 */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.max(1, Number(text));
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(1, Math.ceil((at - now) / 1000));
}
