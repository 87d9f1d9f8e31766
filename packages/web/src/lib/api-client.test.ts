import { apiPaths, profileResponseSchema } from '@lockit/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, route } from '@/testing/fake-api';
import { apiRequest } from './api-client';
import { ApiError, NetworkError, NoSessionError, UnexpectedResponseError } from './api-errors';
import { retryAfterSeconds } from './http';

const profile = { username: 'alice', email: 'alice@example.com', fullname: 'Alice' };
const getProfile = () => apiRequest(apiPaths.profile, { method: 'GET', schema: profileResponseSchema, protectedCall: true });

describe('apiRequest', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('sends cookies, the client header and a JSON body', async () => {
    const api = fakeApi({ [route('POST', apiPaths.sendCode)]: { status: 200, body: { message: 'Sent' } } });
    const { messageResponseSchema } = await import('@lockit/contract');
    await apiRequest(apiPaths.sendCode, {
      method: 'POST',
      body: { email: 'a@b.co', username: 'alice' },
      schema: messageResponseSchema,
    });
    const [request] = api.requests;
    expect(request?.credentials).toBe('include');
    expect(request?.headers).toMatchObject({ 'x-lockit-client': 'web', 'content-type': 'application/json' });
    expect(request?.body).toEqual({ email: 'a@b.co', username: 'alice' });
  });

  it('returns the answer parsed by the contract schema', async () => {
    fakeApi({ [route('GET', apiPaths.profile)]: { status: 200, body: { message: 'Success', data: profile } } });
    await expect(getProfile()).resolves.toEqual({ message: 'Success', data: profile });
  });

  it('refuses a 2xx answer that does not match the contract', async () => {
    fakeApi({ [route('GET', apiPaths.profile)]: { status: 200, body: { message: 'Success', data: { username: 3 } } } });
    await expect(getProfile()).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('turns an error status into ApiError with the server message and body', async () => {
    fakeApi({ [route('POST', apiPaths.login)]: { status: 403, body: { message: 'Verify first.', data: { unverified: true } } } });
    const { messageResponseSchema } = await import('@lockit/contract');
    const error = await apiRequest(apiPaths.login, { method: 'POST', schema: messageResponseSchema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, serverMessage: 'Verify first.', body: { data: { unverified: true } } });
  });

  it('turns a missing answer into NetworkError', async () => {
    fakeApi({ [route('GET', apiPaths.profile)]: 'network-error' });
    const error = await getProfile().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ offline: false });
  });

  it('says a failed call was made offline when the browser reports no network', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fakeApi({ [route('GET', apiPaths.profile)]: 'network-error' });
    await expect(getProfile()).rejects.toMatchObject({ name: 'NetworkError', offline: true });
  });

  it("keeps the server's Retry-After, in seconds, on the ApiError of a 429", async () => {
    fakeApi({
      [route('POST', apiPaths.sendCode)]: { status: 429, body: { message: 'Wait.' }, headers: { 'retry-after': '45' } },
    });
    const { messageResponseSchema } = await import('@lockit/contract');
    const error = await apiRequest(apiPaths.sendCode, { method: 'POST', schema: messageResponseSchema }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 45 });
  });

  it('on a 401 of a protected call, refreshes the session once and retries once', async () => {
    let calls = 0;
    const api = fakeApi({
      [route('GET', apiPaths.profile)]: () =>
        ++calls === 1
          ? { status: 401, body: { message: 'Expired.' } }
          : { status: 200, body: { message: 'Success', data: profile } },
      [route('POST', apiPaths.refreshToken)]: { status: 200, body: { message: 'Token refreshed' } },
    });
    await expect(getProfile()).resolves.toMatchObject({ data: profile });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${apiPaths.profile}`,
      `POST ${apiPaths.refreshToken}`,
      `GET ${apiPaths.profile}`,
    ]);
  });

  it('gives up with the original 401 when the refresh fails, without a loop', async () => {
    const api = fakeApi({ [route('GET', apiPaths.profile)]: { status: 401, body: { message: 'Please sign in.' } } });
    await expect(getProfile()).rejects.toMatchObject({ status: 401, serverMessage: 'Please sign in.' });
    expect(api.requests).toHaveLength(2);
  });

  it('does not refresh on a 401 of a call that needs no session (e.g. a wrong password at login)', async () => {
    const api = fakeApi({ [route('POST', apiPaths.login)]: { status: 401, body: { message: 'Invalid credentials.' } } });
    const { loginResponseSchema } = await import('@lockit/contract');
    await expect(apiRequest(apiPaths.login, { method: 'POST', schema: loginResponseSchema })).rejects.toMatchObject({
      status: 401,
    });
    expect(api.to('POST', apiPaths.refreshToken)).toHaveLength(0);
  });

  it('shares one refresh between concurrent 401s (the server rotates the refresh token)', async () => {
    let refreshed = false;
    const api = fakeApi({
      [route('GET', apiPaths.profile)]: () =>
        refreshed ? { status: 200, body: { message: 'Success', data: profile } } : { status: 401, body: { message: 'Expired.' } },
      [route('POST', apiPaths.refreshToken)]: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        refreshed = true;
        return { status: 200, body: { message: 'Token refreshed' } };
      },
    });
    await Promise.all([getProfile(), getProfile(), getProfile()]);
    expect(api.to('POST', apiPaths.refreshToken)).toHaveLength(1);
  });

  it('prefixes VITE_API_URL when the API lives on another origin', async () => {
    vi.stubEnv('VITE_API_URL', 'https://api.example.com/');
    vi.resetModules();
    const client = await import('./api-client');
    const contract = await import('@lockit/contract');
    const api = fakeApi({ [route('GET', apiPaths.profile)]: { status: 200, body: { message: 'Success', data: profile } } });
    await client.apiRequest(apiPaths.profile, { method: 'GET', schema: contract.profileResponseSchema });
    expect(String(api.fetchSpy.mock.calls[0]?.[0])).toBe('https://api.example.com/api/user/profile');
  });
});

describe('without the session hint cookie (surely signed out)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('does not send a call that needs a session: a NoSessionError (401) instead, and no refresh', async () => {
    const api = fakeApi({}, { sessionHint: false });
    const error = await getProfile().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoSessionError);
    expect(error).toMatchObject({ status: 401 });
    expect(api.requests).toEqual([]);
  });

  it('still sends calls that need no session', async () => {
    const api = fakeApi({ [route('POST', apiPaths.prelogin)]: { status: 200, body: { message: 'OK' } } }, { sessionHint: false });
    const { messageResponseSchema } = await import('@lockit/contract');
    await apiRequest(apiPaths.prelogin, { method: 'POST', body: { username: 'alice' }, schema: messageResponseSchema });
    expect(api.to('POST', apiPaths.prelogin)).toHaveLength(1);
  });

  it('sends it as before once the server has set the hint', async () => {
    fakeApi(
      { [route('GET', apiPaths.profile)]: { status: 200, body: { message: 'Success', data: profile } } },
      { sessionHint: true },
    );
    await expect(getProfile()).resolves.toMatchObject({ data: profile });
  });

  it('sends it anyway when the API lives on another origin, whose cookies this page cannot read', async () => {
    vi.stubEnv('VITE_API_URL', 'https://api.example.com');
    vi.resetModules();
    const client = await import('./api-client');
    const contract = await import('@lockit/contract');
    const api = fakeApi(
      { [route('GET', apiPaths.profile)]: { status: 200, body: { message: 'Success', data: profile } } },
      { sessionHint: false },
    );
    await client.apiRequest(apiPaths.profile, { method: 'GET', schema: contract.profileResponseSchema, protectedCall: true });
    expect(api.requests).toHaveLength(1);
  });
});

describe('retryAfterSeconds', () => {
  it('reads whole seconds and HTTP dates, at least 1 s, and nothing from an unreadable header', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(retryAfterSeconds('60', now)).toBe(60);
    expect(retryAfterSeconds('0', now)).toBe(1);
    expect(retryAfterSeconds('Tue, 24 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});

describe('calls whose answer is not used', () => {
  it('count any 2xx as success, even with an empty body', async () => {
    const { logout } = await import('@/api/logout');
    fakeApi({ [route('POST', apiPaths.logout)]: { status: 200 } });
    await expect(logout()).resolves.toBe('Logged out.');
  });

  it('keep the server message when there is one', async () => {
    const { logout } = await import('@/api/logout');
    fakeApi({ [route('POST', apiPaths.logout)]: { status: 200, body: { message: 'Bye', data: { whatever: 1 } } } });
    await expect(logout()).resolves.toBe('Bye');
  });
});
