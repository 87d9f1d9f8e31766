import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract/paths';
import type { RouteEntry, RouteName } from '@lockit/contract/routes';
import { ApiError, NetworkError, NoSessionError, UnexpectedResponseError, retryAfterSeconds } from './api-errors';
import { fillRoutePath } from './route-path';
import type { RouteAnswer, RouteInput } from './route-types';
import type { Transport } from './transport';

/** An answer of the API: status, parsed JSON (null when empty or not JSON) and headers. */
export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  headers: { get(name: string): string | null };
}

/** The part of a schema the client needs: a safe parse (zod's, or anything shaped like it). */
export interface AnswerSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call by path, for callers that hold a schema of their own rather than a route name. */
export interface PathRequest<T> {
  method: HttpMethod;
  body?: unknown;
  /**
   * The answer's schema, or a loader of it: a page that loads its schemas on demand starts the
   * load only once the request is sent (a call never sent loads nothing), and awaits it only
   * once there is an answer to check.
   */
  schema: AnswerSchema<T> | (() => Promise<AnswerSchema<T>>);
  /** Needs the session: refreshed once on a 401, and not sent when the platform surely has none. */
  protectedCall?: boolean;
  /** A call whose success is one exact status (the spec's verify-code): any other is an ApiError. */
  successStatus?: number;
  headers?: Readonly<Record<string, string>>;
}

export interface ApiClientOptions {
  /** Where the API is: '' for the page's own origin, else an origin such as https://vault.example. */
  baseUrl: string;
  transport: Transport;
  /**
   * The route table. A function, so that a page can load the schemas (zod) with the first
   * answer it has to check rather than with its first paint; an MV3 service worker, where
   * `import()` is not allowed, hands over the table it imported.
   */
  routes: () => readonly RouteEntry[] | Promise<readonly RouteEntry[]>;
  /** False only when the platform surely holds no session (the web app's hint cookie): protected calls are then not sent. */
  maybeSignedIn?: () => boolean;
  /** True when the platform knows it has no network (a browser's navigator.onLine false). */
  knownOffline?: () => boolean;
}

/**
 * The typed HTTP client of every Lockit client. A call names a route of the contract's route
 * table; its input and answer take that route's schemas' types, and the answer is checked
 * against the route's schema for the status the server sent before anyone reads it.
 *
 * Security invariants:
 * - An answer the contract does not describe is an UnexpectedResponseError, never data: a
 *   server cannot slip an unchecked shape past the client.
 * - Every request carries the client header the server's CSRF check wants; bodies and answers
 *   are never logged here.
 * - A 401 on a call that needs the session is answered by one refresh (concurrent callers
 *   share it, since the server rotates the refresh token and a second use of the old one ends
 *   the session family) and one repeat; the second 401 is the caller's.
 */
export class ApiClient {
  readonly #options: ApiClientOptions;
  #byName: Promise<Map<string, RouteEntry>> | null = null;
  #refreshing: Promise<string> | null = null;

  constructor(options: ApiClientOptions) {
    this.#options = options;
  }

  /** Calls the route named `name` with its typed input; resolves with its checked 2xx answer. */
  async call<N extends RouteName>(name: N, input: RouteInput<N>): Promise<RouteAnswer<N>> {
    return (await this.exchange(name, input)).body;
  }

  /** As `call`, with the answer's status and headers (e.g. the vault state the list answer carries). */
  async exchange<N extends RouteName>(name: N, input: RouteInput<N>): Promise<ApiAnswer<RouteAnswer<N>>> {
    const route = await this.#route(name);
    const { params, query, body, headers } = input as {
      params?: Record<string, unknown>;
      query?: object;
      body?: unknown;
      headers?: Readonly<Record<string, string>>;
    };
    const path = fillRoutePath(route.path, params, query);
    const protectedCall = route.access !== 'public';
    const answer = await this.#sendWithRefresh(route.method, path, body, headers, protectedCall);
    const schema = route.responses?.[answer.status];
    if (schema) {
      const parsed = schema.safeParse(answer.body);
      if (!parsed.success) throw new UnexpectedResponseError(answer.status);
      return { ...answer, body: parsed.data as RouteAnswer<N> };
    }
    // A 2xx the route describes no schema for, on a route that has one for another 2xx, is
    // not the contract's answer (e.g. 201 where the spec fixes 200).
    const described = Object.keys(route.responses ?? {}).some((status) => Number(status) >= 200 && Number(status) < 300);
    if (described) throw new ApiError(answer.status, undefined, answer.body);
    return answer as ApiAnswer<RouteAnswer<N>>;
  }

  /** One call by path with the caller's own schema (the web app's older call sites). */
  async request<T>(path: string, request: PathRequest<T>): Promise<ApiAnswer<T>> {
    const { schema } = request;
    let loading: Promise<AnswerSchema<T>> | undefined;
    const startLoad = () => {
      if (typeof schema !== 'function') return;
      loading ??= schema();
      // Not left unhandled while the request is out; awaited (and so thrown) only with an answer.
      loading.catch(() => undefined);
    };
    const protectedCall = request.protectedCall ?? false;
    const answer = await this.#sendWithRefresh(request.method, path, request.body, request.headers, protectedCall, startLoad);
    if (request.successStatus !== undefined && answer.status !== request.successStatus) {
      throw new ApiError(answer.status, undefined, answer.body);
    }
    const checker = typeof schema === 'function' ? await (loading ?? schema()) : schema;
    const parsed = checker.safeParse(answer.body);
    if (!parsed.success) throw new UnexpectedResponseError(answer.status);
    return { ...answer, body: parsed.data };
  }

  /**
   * POST refresh-token: trades the refresh cookie for a fresh access cookie. Concurrent callers
   * share one request. Resolves with the server's message; rejects with ApiError (401: no
   * session), NoSessionError (surely none, not sent) or NetworkError.
   */
  refresh(): Promise<string> {
    if (this.#options.maybeSignedIn && !this.#options.maybeSignedIn()) return Promise.reject(new NoSessionError());
    this.#refreshing ??= (async () => {
      try {
        const answer = await this.send('POST', apiPaths.refreshToken);
        const message = messageOf(answer.body);
        return message ?? 'Session refreshed.';
      } finally {
        this.#refreshing = null;
      }
    })();
    return this.#refreshing;
  }

  /**
   * One HTTP exchange, nothing more: the client header, JSON in and out, and a non-2xx status
   * as an ApiError with the server's `{ message }` and Retry-After.
   */
  async send(method: string, path: string, body?: unknown, extraHeaders?: Readonly<Record<string, string>>): Promise<ApiAnswer> {
    const headers: Record<string, string> = { ...extraHeaders, [CLIENT_HEADER]: CLIENT_HEADER_VALUE, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await this.#options.transport({
        method,
        url: `${this.#options.baseUrl}${path}`,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new NetworkError(this.#options.knownOffline?.() ?? false);
    }
    const parsed = await readJson(response);
    if (response.status < 200 || response.status >= 300) {
      throw new ApiError(response.status, messageOf(parsed), parsed, retryAfterSeconds(response.headers.get('retry-after')));
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  async #sendWithRefresh(
    method: string,
    path: string,
    body: unknown,
    headers: Readonly<Record<string, string>> | undefined,
    protectedCall: boolean,
    whenSent?: () => void,
  ): Promise<ApiAnswer> {
    if (protectedCall && this.#options.maybeSignedIn && !this.#options.maybeSignedIn()) throw new NoSessionError();
    whenSent?.();
    try {
      return await this.send(method, path, body, headers);
    } catch (error) {
      if (!protectedCall || !(error instanceof ApiError) || error.status !== 401) throw error;
      try {
        await this.refresh();
      } catch {
        // No session to refresh: the original 401 is the answer.
        throw error;
      }
      return this.send(method, path, body, headers);
    }
  }

  async #route(name: string): Promise<RouteEntry> {
    this.#byName ??= Promise.resolve(this.#options.routes()).then((table) => new Map(table.map((entry) => [entry.name, entry])));
    let table: Map<string, RouteEntry>;
    try {
      table = await this.#byName;
    } catch {
      // A page loads the table as a script from the server: when it did not arrive, the server
      // could not be reached, as for the call itself. The next call tries again.
      this.#byName = null;
      throw new NetworkError(this.#options.knownOffline?.() ?? false);
    }
    const route = table.get(name);
    if (!route) throw new Error(`No route named "${name}" in the route table.`);
    return route;
  }
}

function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}

async function readJson(response: { text(): Promise<string> }): Promise<unknown> {
  try {
    const text = await response.text();
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}
