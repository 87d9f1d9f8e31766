import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';
import { ApiClient } from './api-client';

/** A tiny server that sets and clears cookies on command and echoes what it received. */
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/set') response.setHeader('set-cookie', ['a=1; Path=/; HttpOnly', 'b=2; Path=/']);
    if (url.pathname === '/clear') response.setHeader('set-cookie', ['a=; Path=/; Max-Age=0']);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          data: {
            cookie: request.headers.cookie ?? null,
            client: request.headers[CLIENT_HEADER] ?? null,
            forwarded: request.headers['x-forwarded-for'] ?? null,
            body,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Echo = { data: { cookie: string | null; client: string | null; forwarded: string | null; body: string } };

describe('ApiClient', () => {
  it('keeps the cookies a server sets and sends them back, with the client header', async () => {
    const client = new ApiClient(baseUrl);
    await client.get('/set');
    const echo = await client.get<Echo>('/echo');
    expect(echo.body.data.cookie).toBe('a=1; b=2');
    expect(echo.body.data.client).toBe(CLIENT_HEADER_VALUE);
  });

  it('drops a cookie the server clears', async () => {
    const client = new ApiClient(baseUrl);
    await client.get('/set');
    await client.get('/clear');
    expect((await client.get<Echo>('/echo')).body.data.cookie).toBe('b=2');
  });

  it('sends its own client address and a JSON body; a copy shares the cookies, not later ones', async () => {
    const client = new ApiClient(baseUrl, '10.1.2.3');
    await client.get('/set');
    const copy = client.copyTo();
    await client.get('/clear');
    const echo = await copy.post<Echo>('/echo', { hello: 'there' });
    expect(echo.body.data).toMatchObject({ cookie: 'a=1; b=2', forwarded: '10.1.2.3', body: '{"hello":"there"}' });
  });

  it('expect() throws with the status and the answer when it differs', async () => {
    await expect(new ApiClient(baseUrl).expect(201, 'GET', '/echo')).rejects.toThrow(/expected 201, got 200 \{"data"/);
  });

  it('leaves out the client header for a bare request', async () => {
    expect((await new ApiClient(baseUrl).get<Echo>('/echo', { bare: true })).body.data.client).toBeNull();
  });
});
