import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Leave out the x-lockit-client header (origin-check tests). */
  bare?: boolean;
}

/**
 * A browser stand-in over `app.inject`: keeps the cookies the server sets (and drops the
 * ones it clears) and sends the web app's client header.
 */
export class InjectClient {
  readonly jar = new Map<string, string>();

  /** `remoteAddress` stands in for the client's IP (rate limits are per IP). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress = '127.0.0.1',
  ) {}

  async request(method: Method, url: string, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = options.bare ? {} : { [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
    Object.assign(headers, options.headers);
    const response = await this.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.remoteAddress,
      cookies: Object.fromEntries(this.jar),
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });
    for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, options?: RequestOptions) {
    return this.request('GET', url, options);
  }
  post(url: string, body?: unknown, options?: RequestOptions) {
    return this.request('POST', url, { ...options, body });
  }
  put(url: string, body?: unknown, options?: RequestOptions) {
    return this.request('PUT', url, { ...options, body });
  }
  delete(url: string, options?: RequestOptions) {
    return this.request('DELETE', url, options);
  }

  /** A second browser holding a copy of this one's cookies right now. */
  clone(): InjectClient {
    const copy = new InjectClient(this.app, this.remoteAddress);
    for (const [name, value] of this.jar) copy.jar.set(name, value);
    return copy;
  }
}
