import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: { message?: string; data?: unknown } & Record<string, unknown>;
}

/**
 * The web app's calls over real HTTP, for tests that drive a server process: keeps the
 * cookies the server sets, sends the client header, and (with TRUST_PROXY on the server)
 * a client address of its own.
 */
export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(
    public baseUrl: string,
    private readonly forwardedFor?: string,
  ) {}

  async request(method: string, path: string, body?: unknown): Promise<HttpAnswer> {
    const headers: Record<string, string> = { [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
    if (this.forwardedFor) headers['x-forwarded-for'] = this.forwardedFor;
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const cleared = value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (cleared) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as HttpAnswer['body']) : {} };
  }

  get(path: string) {
    return this.request('GET', path);
  }
  post(path: string, body?: unknown) {
    return this.request('POST', path, body);
  }
  put(path: string, body?: unknown) {
    return this.request('PUT', path, body);
  }
  delete(path: string) {
    return this.request('DELETE', path);
  }

  /** Another browser holding a copy of this one's cookies, possibly talking to another server. */
  copyTo(baseUrl: string, forwardedFor = this.forwardedFor): HttpClient {
    const copy = new HttpClient(baseUrl, forwardedFor);
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }
}
