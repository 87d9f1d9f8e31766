import type { Transport } from '@lockit/client-core';

/** What the agent tells the server about itself: the sessions list shows it as "Lockit command line". */
export const USER_AGENT = `LockitCLI/0.1.0 (${process.platform === 'darwin' ? 'Macintosh' : 'Linux'}; Node ${process.versions.node})`;

/**
 * Node's fetch over a cookie jar held in this process's memory only: the session's cookies
 * (access and refresh token) are the terminal's "token bound to the device session" (DESIGN §7).
 * They are never written to disk, so a stopped agent leaves nothing that opens the session; the
 * next `lockit login` starts a new one. The server rotates the refresh cookie; the jar keeps
 * whatever it last set and drops what it clears.
 */
export class CookieTransport {
  readonly #cookies = new Map<string, string>();

  constructor(private readonly extraHeaders: Readonly<Record<string, string>> = {}) {}

  get hasCookies(): boolean {
    return this.#cookies.size > 0;
  }

  clear(): void {
    this.#cookies.clear();
  }

  readonly transport: Transport = async (request) => {
    const headers: Record<string, string> = { ...request.headers, ...this.extraHeaders, 'user-agent': USER_AGENT };
    if (this.#cookies.size > 0) headers['cookie'] = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      redirect: 'error',
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    this.#keep(response.headers.getSetCookie());
    return response;
  };

  #keep(lines: string[]): void {
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', val = ''] = attribute.split('=');
        const k = key.trim().toLowerCase();
        return (k === 'max-age' && Number(val) <= 0) || (k === 'expires' && Date.parse(val) <= Date.now());
      });
      if (value === '' || expired) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
}
