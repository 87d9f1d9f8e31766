/**
 * The ways a call to the API can fail. Screens turn them into the texts of the spec's
 * error catalogue; nothing here shows anything to the person.
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
 * A call that needs a session, not sent because this browser surely has none (see
 * session-hint.ts). It means what the server's 401 would have meant, so callers that treat
 * a 401 as "signed out" need no second case.
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
  /** The browser said it had no network when the call failed (navigator.onLine false). */
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
