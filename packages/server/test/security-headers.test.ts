import { describe, expect, it } from 'vitest';
import { apiPaths, SESSION_HINT_COOKIE } from '@lockit/contract';
import { login, newAccount, signUpAndVerify } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const behindProxy = useTestApp({ config: { trustProxy: 1 } });
const alwaysSecure = useTestApp({ config: { cookieSecure: 'always' } });
const neverSecure = useTestApp({ config: { cookieSecure: 'never', trustProxy: 1 } });

const EXPECTED_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers['content-security-policy']).toBe(EXPECTED_CSP);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(String(headers['permissions-policy'])).toContain('camera=()');
  expect(String(headers['permissions-policy'])).not.toContain('interest-cohort');
}

async function cookiesAfterLogin(h: typeof behindProxy, headers: Record<string, string> = {}) {
  const account = await newAccount();
  await signUpAndVerify(h, h.client(), account);
  const response = await h
    .client()
    .post(apiPaths.login, { username: account.username, password: account.keys.authKey }, { headers });
  expect(response.statusCode).toBe(200);
  return response.cookies as Array<{ name: string; secure?: boolean }>;
}

describe('security headers', () => {
  it('are on successful API answers, with Cache-Control: no-store', async () => {
    const response = await behindProxy.client().post(apiPaths.prelogin, { username: 'someone' });
    expect(response.statusCode).toBe(200);
    expectSecurityHeaders(response.headers);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('are on error answers and unknown API paths too', async () => {
    for (const response of [
      await behindProxy.client().get(apiPaths.profile),
      await behindProxy.client().get('/api/does-not-exist'),
      await behindProxy.client().post(apiPaths.login, { username: 1 }),
    ]) {
      expectSecurityHeaders(response.headers);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('add HSTS only over HTTPS', async () => {
    const plain = await behindProxy.client().post(apiPaths.prelogin, { username: 'someone' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await behindProxy
      .client()
      .post(apiPaths.prelogin, { username: 'someone' }, { headers: { 'x-forwarded-proto': 'https' } });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('COOKIE_SECURE', () => {
  it('auto: Secure cookies only when the request came over HTTPS', async () => {
    const plain = await cookiesAfterLogin(behindProxy);
    expect(plain.every((cookie) => !cookie.secure)).toBe(true);
    const https = await cookiesAfterLogin(behindProxy, { 'x-forwarded-proto': 'https' });
    expect(https.map((cookie) => cookie.name).sort()).toEqual([
      'lockit_access',
      'lockit_device',
      'lockit_device',
      'lockit_device',
      'lockit_refresh',
      SESSION_HINT_COOKIE,
    ]);
    expect(https.every((cookie) => cookie.secure === true)).toBe(true);
  });

  it('true: always Secure', async () => {
    const cookies = await cookiesAfterLogin(alwaysSecure);
    expect(cookies.every((cookie) => cookie.secure === true)).toBe(true);
  });

  it('false: never Secure', async () => {
    const cookies = await cookiesAfterLogin(neverSecure, { 'x-forwarded-proto': 'https' });
    expect(cookies.every((cookie) => !cookie.secure)).toBe(true);
  });

  it('clears cookies with the same attributes it set them with', async () => {
    const account = await newAccount();
    const client = alwaysSecure.client();
    await signUpAndVerify(alwaysSecure, client, account);
    await login(client, account);
    const response = await client.post(apiPaths.logout);
    const cleared = response.cookies as Array<{
      name: string;
      secure?: boolean;
      path?: string;
      httpOnly?: boolean;
      sameSite?: string;
    }>;
    expect(cleared.map((cookie) => cookie.name).sort()).toEqual(['lockit_access', 'lockit_refresh', SESSION_HINT_COOKIE]);
    for (const cookie of cleared) {
      expect(cookie).toMatchObject({ secure: true, path: '/', sameSite: 'Strict' });
      expect(cookie.httpOnly === true, cookie.name).toBe(cookie.name !== SESSION_HINT_COOKIE);
    }
  });
});
