import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Pwned Passwords range API: `GET /range/{5 hex}` answers the real
 * format (`SUFFIX:COUNT` lines, CRLF), with padding lines of count 0 when asked
 * (`Add-Padding: true`), and CORS as the real service sends it. It knows only `breached`.
 *
 * Shared by the web app's tests and e2e, so it is its own export
 * (`@lockit/test-support/pwned-stand-in`) and uses Node's built-ins only: the one part of the
 * toolkit the web app's tests may import (eslint.config.js), without the server, database or
 * browser helpers.
 */
export interface PwnedStandIn {
  url: string;
  /** Every range path asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startPwnedStandIn(breached: Record<string, number>): Promise<PwnedStandIn> {
  const known = new Map<string, Array<[string, number]>>();
  for (const [password, count] of Object.entries(breached)) {
    const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
    const lines = known.get(hash.slice(0, 5)) ?? [];
    lines.push([hash.slice(5), count]);
    known.set(hash.slice(0, 5), lines);
  }
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'Add-Padding');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const match = /^\/range\/([0-9A-Fa-f]{5})$/.exec(request.url ?? '');
    if (request.method !== 'GET' || !match) return void response.writeHead(404).end();
    requests.push(request.url!);
    const prefix = match[1]!.toUpperCase();
    const lines = (known.get(prefix) ?? []).map(([suffix, count]) => `${suffix}:${count}`);
    if (request.headers['add-padding'] === 'true') {
      for (let i = 0; i < 40; i++)
        lines.push(`${createHash('sha1').update(`pad${prefix}${i}`).digest('hex').slice(5).toUpperCase()}:0`);
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
