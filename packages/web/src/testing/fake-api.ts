import { createHash } from 'node:crypto';
import { foldAccountName } from '@lockit/client-core';
import { apiPaths, SESSION_HINT_COOKIE } from '@lockit/contract';
import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  path: string;
  /** The query string's parameters (e.g. a delete's `revision`). */
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
  credentials: RequestCredentials | undefined;
}

/** What the fake server answers: a status with a JSON body, or no answer at all. */
export type FakeAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'network-error';
export type FakeRoute = FakeAnswer | ((request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>);

/** `route('POST', apiPaths.login)` -> 'POST /api/users/login' */
export const route = (method: string, path: string) => `${method} ${path}`;

/**
 * Every path under a prefix, for paths that carry an id: `routePrefix('PUT', apiPaths.updateEntry(''))`.
 * An exact route wins over a prefix route.
 */
export const routePrefix = (method: string, prefix: string) => `${method} ${prefix}*`;

function findHandler(table: Record<string, FakeRoute>, method: string, path: string): FakeRoute | undefined {
  const exact = table[route(method, path)];
  if (exact) return exact;
  const prefixKey = Object.keys(table).find((key) => key.endsWith('*') && `${method} ${path}`.startsWith(key.slice(0, -1)));
  return prefixKey === undefined ? undefined : table[prefixKey];
}

/** A visitor without a session: what the real server answers to the calls every screen makes. */
const signedOut: Record<string, FakeRoute> = {
  [route('POST', apiPaths.verifySession)]: { status: 401, body: { message: 'Please sign in.' } },
  [route('POST', apiPaths.refreshToken)]: { status: 401, body: { message: 'Please sign in.' } },
  [route('GET', apiPaths.profile)]: { status: 401, body: { message: 'Please sign in.' } },
};

/** The session the fake API reports as this browser's. */
export const THIS_SESSION = {
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  browser: 'Chrome 156',
  system: 'Linux',
  createdAt: '2026-11-24T08:00:00.000Z',
  lastUsedAt: '2026-11-24T10:00:00.000Z',
  address: '203.0.113.5',
  signInAddress: '203.0.113.5',
  current: true,
};

/**
 * This browser signed its session in as `username`, as sign-in leaves it (the client core's
 * session binding in localStorage). Written synchronously, so route tables can set it up.
 */
export function bindSessionInThisBrowser(username: string): void {
  const ref = createHash('sha256').update(foldAccountName(username)).digest('hex');
  window.localStorage.setItem('lockit.sessionAccount', ref);
}

/** A visitor with a live session, signed in from this browser. */
export const signedInRoutes = (profile = { username: 'alice', email: 'alice@example.com', fullname: 'Alice Liddell' }) => {
  bindSessionInThisBrowser(profile.username);
  return signedInAnswers(profile);
};

/** What the server answers a visitor with a live session, whether or not this browser made it. */
export const signedInAnswers = (profile = { username: 'alice', email: 'alice@example.com', fullname: 'Alice Liddell' }) => ({
  [route('POST', apiPaths.verifySession)]: { status: 200, body: { message: 'Success', data: { username: profile.username } } },
  [route('GET', apiPaths.profile)]: { status: 200, body: { message: 'Success', data: profile } },
  // Profile's "Sessions and devices": this browser's session alone.
  [route('GET', apiPaths.sessions)]: { status: 200, body: { message: 'OK', data: [THIS_SESSION] } },
  // Profile's "Passkeys and security keys" and two-step sign-in: no factor yet.
  [route('GET', apiPaths.twoFactor)]: {
    status: 200,
    body: { message: 'OK', data: { totp: false, recoveryCodesLeft: 0, credentials: [], rememberBrowserDays: 30 } },
  },
});

/** The server's session hint cookie in this document (jsdom's cookie jar). */
export function setSessionHint(present: boolean): void {
  document.cookie = present ? `${SESSION_HINT_COOKIE}=1; path=/` : `${SESSION_HINT_COOKIE}=; max-age=0; path=/`;
}

/** Answers after which the real server sets (true) or clears (false) the hint cookie. */
function hintAfter(request: FakeRequest, status: number): boolean | undefined {
  const ok = status >= 200 && status < 300;
  if (request.path === apiPaths.login) return ok ? true : undefined;
  // Issue 18: the second step of a sign-in opens the session.
  if (request.path === apiPaths.loginSecondFactor || request.path === apiPaths.loginWebauthn) return ok ? true : undefined;
  if (request.path === apiPaths.refreshToken) return ok ? undefined : status === 401 ? false : undefined;
  if (request.path === apiPaths.logout || request.path === apiPaths.deleteAccount) return ok ? false : undefined;
  return undefined;
}

export interface FakeApiOptions {
  /**
   * Whether the browser starts with the session hint cookie. Default true: the app then
   * sends its session calls, and the routes decide the answers. False: a browser that has
   * surely no session, where the app sends none.
   */
  sessionHint?: boolean;
}

/**
 * A tiny stand-in for the server, per test: `fetch` is spied and answers from `routes`
 * (on top of signed-out defaults). Every request is recorded so tests can assert on what was
 * sent, and on what was NOT sent. Unknown routes answer 404 like the real server. Like the
 * server, it sets the hint cookie on sign-in and clears it on logout, deletion and a
 * refused refresh.
 */
export function fakeApi(routes: Record<string, FakeRoute> = {}, options: FakeApiOptions = {}) {
  setSessionHint(options.sessionHint ?? true);
  const table: Record<string, FakeRoute> = { ...signedOut, ...routes };
  const requests: FakeRequest[] = [];
  const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost:3000',
    );
    const method = init?.method ?? 'GET';
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const request: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: text === undefined ? undefined : (JSON.parse(text) as unknown),
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      credentials: init?.credentials,
    };
    requests.push(request);
    const handler = findHandler(table, method, url.pathname);
    const answer: FakeAnswer = handler
      ? typeof handler === 'function'
        ? await handler(request)
        : handler
      : { status: 404, body: { message: 'Not found.' } };
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    const hint = hintAfter(request, answer.status);
    if (hint !== undefined) setSessionHint(hint);
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  });
  return {
    fetchSpy,
    requests,
    /** Requests sent to `method path`. */
    to: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    /** Change an answer mid-test. */
    set: (key: string, answer: FakeRoute) => {
      table[key] = answer;
    },
  };
}
