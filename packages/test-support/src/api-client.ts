import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';

/** The JSON answer of the API: `{ message, data }` on most routes. */
export type ApiBody = { message?: string; data?: unknown } & Record<string, unknown>;

export interface ApiAnswer<T = ApiBody> {
  status: number;
  headers: Headers;
  body: T;
  /** The body as sent, for messages and for answers that are not JSON. */
  raw: string;
}

export interface ApiRequestOptions {
  headers?: Record<string, string>;
  /** Leave out the web app's client header (origin-check tests). */
  bare?: boolean;
}

/**
 * A browser stand-in over real HTTP: keeps the cookies the server sets (and drops the ones it
 * clears), sends the web app's client header and, for a server with TRUST_PROXY, a client
 * address of its own.
 */
export class ApiClient {
  readonly cookies = new Map<string, string>();

  constructor(
    public baseUrl: string,
    /** Sent as X-Forwarded-For: one client address per simulated browser. */
    readonly forwardedFor?: string,
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request<T = ApiBody>(
    method: string,
    path: string,
    body?: unknown,
    options: ApiRequestOptions = {},
  ): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = options.bare ? {} : { [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
    if (this.forwardedFor) headers['x-forwarded-for'] = this.forwardedFor;
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader;
    if (body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, options.headers);
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    this.keepCookies(response.headers.getSetCookie());
    const raw = await response.text();
    let parsed: unknown = {};
    try {
      parsed = raw ? JSON.parse(raw) : {};
    } catch {
      parsed = {};
    }
    return { status: response.status, headers: response.headers, body: parsed as T, raw };
  }

  /**
   * This browser stand-in as the client core's Transport: the request as the core built it
   * (its client header included), with this client's cookies and address, and the cookies of
   * the answer kept.
   */
  readonly transport = async (request: {
    method: string;
    url: string;
    headers: Readonly<Record<string, string>>;
    body?: string;
  }): Promise<Response> => {
    const headers: Record<string, string> = { ...request.headers };
    if (this.forwardedFor) headers['x-forwarded-for'] = this.forwardedFor;
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader;
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    this.keepCookies(response.headers.getSetCookie());
    return response;
  };

  get<T = ApiBody>(path: string, options?: ApiRequestOptions) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = ApiBody>(path: string, body?: unknown, options?: ApiRequestOptions) {
    return this.request<T>('POST', path, body, options);
  }
  put<T = ApiBody>(path: string, body?: unknown, options?: ApiRequestOptions) {
    return this.request<T>('PUT', path, body, options);
  }
  delete<T = ApiBody>(path: string, options?: ApiRequestOptions) {
    return this.request<T>('DELETE', path, undefined, options);
  }

  /** Like `request`, but throws with the answer's text unless the status is the expected one. */
  async expect<T = ApiBody>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.request<T>(method, path, body);
    if (answer.status !== status) {
      throw new Error(`${method} ${path}: expected ${status}, got ${answer.status} ${answer.raw.slice(0, 300)}`);
    }
    return answer.body;
  }

  /** Another browser holding a copy of this one's cookies now, possibly talking to another server. */
  copyTo(baseUrl = this.baseUrl, forwardedFor = this.forwardedFor): ApiClient {
    const copy = new ApiClient(baseUrl, forwardedFor);
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }

  private keepCookies(setCookieLines: string[]): void {
    for (const line of setCookieLines) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1);
      const cleared = value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (cleared) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
