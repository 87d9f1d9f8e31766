import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';

/** One account's HTTP session against the real server: cookies kept, as the web app sends them. */
export class ApiSession {
  private cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    /** Sent as X-Forwarded-For when the server trusts a proxy: one client address per account. */
    readonly clientIp?: string,
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; raw: string }> {
    const headers: Record<string, string> = { [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader;
    if (this.clientIp) headers['x-forwarded-for'] = this.clientIp;
    const answer = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const line of answer.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (pair && eq > 0) this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const raw = await answer.text();
    return { status: answer.status, body: (raw ? JSON.parse(raw) : undefined) as T, raw };
  }

  /** Like `call`, but throws unless the status is the expected one. */
  async expect<T = unknown>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (answer.status !== status) {
      throw new Error(`${method} ${path}: expected ${status}, got ${answer.status} ${answer.raw.slice(0, 300)}`);
    }
    return answer.body;
  }
}

export { apiPaths };
