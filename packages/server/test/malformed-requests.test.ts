import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

/** Writes raw bytes to the listening server and returns everything it answers. */
async function rawExchange(request: string): Promise<string> {
  if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('connect', () => socket.write(request));
    setTimeout(() => reject(new Error(`no answer: ${answer}`)), 5_000).unref();
  });
}

function jsonOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

describe('requests refused before routing', () => {
  it('a malformed percent-encoding: 400 with a readable message and the security headers', async () => {
    for (const url of ['/api/passwords/delete/%ZZ', '/api/user/profile%', '/home%E0%A4%A']) {
      const response = await h.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({ message: 'The address of this request is not valid.' });
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('an over-long entry id: 414, without echoing it', async () => {
    const response = await h.app.inject({
      method: 'DELETE',
      url: `/api/passwords/delete/${'a'.repeat(5_000)}`,
      headers: { 'x-lockit-client': 'web' },
    });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ message: 'The address of this request is too long.' });
  });
});

describe('requests too broken to be HTTP', () => {
  it('get a JSON 400 and a closed connection', async () => {
    for (const garbage of [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'GET /\x00 HTTP/1.1\r\n\r\n',
    ]) {
      const raw = await rawExchange(garbage);
      expect(raw, JSON.stringify(garbage)).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(raw).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
      expect(jsonOf(raw)).toEqual({ message: 'The request could not be understood.' });
    }
  });

  it('headers over the size limit get a JSON 431', async () => {
    const raw = await rawExchange(`GET /api/user/profile HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(jsonOf(raw)).toEqual({ message: 'The request headers are too large.' });
  });
});
