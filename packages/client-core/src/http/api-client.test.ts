import { routeTable } from '@lockit/contract/routes';
import { describe, expect, it } from 'vitest';
import { ApiClient } from './api-client';
import { ApiError, NetworkError, NoSessionError, UnexpectedResponseError } from './api-errors';
import { fillRoutePath } from './route-path';
import type { Transport, TransportRequest } from './transport';

/** A platform's transport that answers from a script and keeps what was sent. */
function scripted(answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>) {
  const sent: TransportRequest[] = [];
  const transport: Transport = async (request) => {
    sent.push(request);
    const next = answers.shift();
    if (!next) throw new TypeError('connection refused');
    const headers = new Map(Object.entries(next.headers ?? {}));
    return {
      status: next.status,
      headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
      text: async () => (next.body === undefined ? '' : JSON.stringify(next.body)),
    };
  };
  return { sent, transport };
}

const client = (transport: Transport, more: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) =>
  new ApiClient({ baseUrl: 'https://vault.example', transport, routes: () => routeTable, ...more });

describe('the client core’s API client', () => {
  it('fills a route’s path params URI-encoded and appends its query', () => {
    expect(fillRoutePath('/api/passwords/delete/:id', { id: 'a/b c' }, { revision: 3 })).toBe(
      '/api/passwords/delete/a%2Fb%20c?revision=3',
    );
    expect(() => fillRoutePath('/api/passwords/delete/:id', {})).toThrow(/":id"/);
  });

  it('sends a named route with its method, path, JSON body and the client header, and returns the checked answer', async () => {
    const { sent, transport } = scripted([
      {
        status: 200,
        body: {
          message: 'ok',
          data: {
            salt: 'c2FsdHNhbHRzYWx0c2FsdA',
            kdf: { algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 },
            keyGeneration: 0,
          },
        },
      },
    ]);
    const answer = await client(transport).call('prelogin', { body: { username: 'ada' } });
    expect(answer.data.keyGeneration).toBe(0);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: 'https://vault.example/api/users/prelogin',
      body: '{"username":"ada"}',
    });
    expect(sent[0]!.headers['x-lockit-client']).toBe('web');
  });

  it('refuses a 2xx answer whose body the route’s schema does not accept, and a 2xx status the route does not describe', async () => {
    const bad = scripted([{ status: 200, body: { message: 'ok', data: { salt: 5 } } }]);
    await expect(client(bad.transport).call('prelogin', { body: { username: 'ada' } })).rejects.toBeInstanceOf(
      UnexpectedResponseError,
    );
    const other = scripted([{ status: 201, body: { message: 'ok' } }]);
    await expect(
      client(other.transport).call('verify-code', { body: { username: 'ada', email: 'ada@example.com', code: 'ABC123' } }),
    ).rejects.toBeInstanceOf(ApiError);
  });

  it('turns an error status into an ApiError with the server’s message and its Retry-After', async () => {
    const { transport } = scripted([{ status: 429, body: { message: 'Too many attempts.' }, headers: { 'retry-after': '30' } }]);
    const failure = (await client(transport)
      .call('prelogin', { body: { username: 'ada' } })
      .catch((error: unknown) => error)) as ApiError;
    expect(failure).toBeInstanceOf(ApiError);
    expect([failure.status, failure.serverMessage, failure.retryAfterSeconds]).toEqual([429, 'Too many attempts.', 30]);
  });

  it('refreshes once on a 401 of a session call, shared by concurrent callers, then repeats each call once', async () => {
    const profile = { message: 'ok', data: { username: 'ada', email: 'ada@example.com', fullname: 'Ada' } };
    const { sent, transport } = scripted([
      { status: 401, body: { message: 'expired' } },
      { status: 401, body: { message: 'expired' } },
      { status: 200, body: { message: 'Token refreshed' } },
      { status: 200, body: profile },
      { status: 200, body: profile },
    ]);
    const api = client(transport);
    const both = await Promise.all([api.call('profile', {}), api.call('profile', {})]);
    expect(both.map((answer) => answer.data.username)).toEqual(['ada', 'ada']);
    expect(sent.filter((request) => request.url.endsWith('/refresh-token'))).toHaveLength(1);
  });

  it('sends no session call when the platform surely holds no session, and says so as a 401', async () => {
    const { sent, transport } = scripted([]);
    const failure = await client(transport, { maybeSignedIn: () => false })
      .call('profile', {})
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NoSessionError);
    expect(sent).toEqual([]);
  });

  it('says the network failed, and whether the platform knew it was offline', async () => {
    const { transport } = scripted([]);
    const failure = (await client(transport, { knownOffline: () => true })
      .call('prelogin', { body: { username: 'a' } })
      .catch((error: unknown) => error)) as NetworkError;
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure.offline).toBe(true);
  });

  it('says the server could not be reached when the route table, loaded from it, did not arrive, and tries again on the next call', async () => {
    const { transport } = scripted([
      { status: 200, body: { message: 'ok', data: { username: 'ada', email: 'a@example.com', fullname: 'A' } } },
    ]);
    let loads = 0;
    const api = new ApiClient({
      baseUrl: '',
      transport,
      knownOffline: () => true,
      routes: async () => {
        loads += 1;
        if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module');
        return routeTable;
      },
    });
    const failure = (await api.call('profile', {}).catch((error: unknown) => error)) as NetworkError;
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure.offline).toBe(true);
    await expect(api.call('profile', {})).resolves.toMatchObject({ data: { username: 'ada' } });
  });
});
