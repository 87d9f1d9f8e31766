import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths, SESSION_HINT_COOKIE } from '@lockit/contract';
import { login, makeKeyMaterial, newAccount, signedInUser, signUpAndVerify } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

/**
 * The hint cookie: `1`, readable by scripts, set and cleared with the session cookies and
 * living as long as the refresh cookie, so the web app can skip session calls that would
 * surely answer 401. It carries no token and opens nothing.
 */
const h = useTestApp({ config: { trustProxy: 1 } });
const DAY = 24 * 60 * 60 * 1000;

interface Cookie {
  name: string;
  value: string;
  maxAge?: number;
  httpOnly?: boolean;
  sameSite?: string;
  secure?: boolean;
  path?: string;
  domain?: string;
}

const cookiesOf = (response: LightMyRequestResponse) => response.cookies as Cookie[];
const named = (response: LightMyRequestResponse, name: string) => cookiesOf(response).find((cookie) => cookie.name === name);
const cleared = (cookie: Cookie | undefined) => cookie !== undefined && cookie.value === '' && cookie.maxAge === 0;

describe('the session hint cookie', () => {
  it('comes with sign-in: 1, not HttpOnly, SameSite=Strict, Path=/, host-only, the refresh lifetime', async () => {
    const account = await newAccount();
    const client = h.client();
    await signUpAndVerify(h, client, account);
    const response = await login(client, account);
    const hint = named(response, SESSION_HINT_COOKIE);
    expect(hint).toMatchObject({ value: '1', sameSite: 'Strict', path: '/' });
    expect(hint?.httpOnly).toBeFalsy();
    expect(hint?.secure).toBeFalsy();
    expect(hint?.domain).toBeUndefined();
    expect(hint?.maxAge).toBe(named(response, 'lockit_refresh')?.maxAge);
  });

  it('is Secure over HTTPS, like the session cookies', async () => {
    const { client, account } = await signedInUser(h);
    const response = await client.post(
      apiPaths.login,
      { username: account.username, password: account.keys.authKey },
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(named(response, SESSION_HINT_COOKIE)).toMatchObject({ value: '1', secure: true });
  });

  it('is renewed with each refresh, capped like the refresh cookie at the absolute session end', async () => {
    const { client } = await signedInUser(h);
    h.clock.advance(10 * DAY);
    await client.post(apiPaths.refreshToken);
    h.clock.advance(10 * DAY);
    const response = await client.post(apiPaths.refreshToken);
    expect(response.statusCode).toBe(200);
    const refresh = named(response, 'lockit_refresh');
    expect(refresh?.maxAge).toBeLessThanOrEqual((10 * DAY) / 1000);
    expect(named(response, SESSION_HINT_COOKIE)).toMatchObject({ value: '1', maxAge: refresh?.maxAge });
  });

  it('is renewed by a password change, which issues new session cookies', async () => {
    const { client, account } = await signedInUser(h);
    const next = await makeKeyMaterial('a new master password', account.vaultKeyBytes);
    const response = await client.put(apiPaths.changePassword, {
      oldPassword: account.keys.authKey,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration: 1,
    });
    expect(response.statusCode).toBe(200);
    expect(named(response, SESSION_HINT_COOKIE)?.value).toBe('1');
  });

  it('is cleared by logout, account deletion and a refresh that finds no session', async () => {
    const out = await signedInUser(h);
    expect(cleared(named(await out.client.post(apiPaths.logout), SESSION_HINT_COOKIE))).toBe(true);

    const gone = await signedInUser(h);
    expect(cleared(named(await gone.client.delete(apiPaths.deleteAccount), SESSION_HINT_COOKIE))).toBe(true);

    const idle = await signedInUser(h);
    h.clock.advance(15 * DAY);
    const ended = await idle.client.post(apiPaths.refreshToken);
    expect(ended.statusCode).toBe(401);
    expect(cleared(named(ended, SESSION_HINT_COOKIE))).toBe(true);
    // Only the device cookie stays: it marks a browser that signed in before, not a session.
    expect([...idle.client.jar.keys()]).toEqual(['lockit_device']);
  });

  it('opens nothing: a browser holding only the hint is signed out', async () => {
    const visitor = h.client();
    visitor.jar.set(SESSION_HINT_COOKIE, '1');
    expect((await visitor.post(apiPaths.verifySession)).statusCode).toBe(401);
    expect((await visitor.get(apiPaths.profile)).statusCode).toBe(401);
    expect((await visitor.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect(visitor.jar.has(SESSION_HINT_COOKIE)).toBe(false);
  });

  it('is not set by answers that start no session', async () => {
    const visitor = h.client();
    const answers = [await visitor.post(apiPaths.prelogin, { username: 'someone' }), await visitor.post(apiPaths.verifySession)];
    for (const response of answers) expect(named(response, SESSION_HINT_COOKIE)).toBeUndefined();
  });
});
