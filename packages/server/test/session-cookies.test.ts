import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths, SESSION_HINT_COOKIE } from '@lockit/contract';
import { login, makeKeyMaterial, newAccount, signedInUser, signUpAndVerify } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { useTestApp, type TestHarness } from './helpers/test-app';

const h = useTestApp({ config: { trustProxy: 1 } });
const strict = useTestApp({ timing: { refreshReuseGraceMs: 0 } });
const SECOND = 1_000;

function setCookieLines(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

/** Every answer's body, headers and URL-bearing fields are free of the tokens the client holds. */
function expectNoTokenOutsideCookies(response: LightMyRequestResponse, tokens: string[]) {
  const outside = JSON.stringify({ body: response.body, headers: { ...response.headers, 'set-cookie': undefined } });
  for (const token of tokens) expect(outside).not.toContain(token);
  expect(response.headers.location).toBeUndefined();
}

async function signUp(harness: TestHarness) {
  const account = await newAccount();
  const client = harness.client();
  await signUpAndVerify(harness, client, account);
  return { account, client };
}

describe('session cookies', () => {
  it('are HttpOnly, SameSite=Strict, Path=/, host-only, with the access and refresh lifetimes', async () => {
    const { account, client } = await signUp(h);
    // The device cookie, scoped to the sign-in route, has its own test (device-cookies.test.ts).
    const all = setCookieLines(await login(client, account)).filter((line) => !line.startsWith('lockit_device='));
    // The third is the script-readable hint without a token (session-hint.test.ts).
    expect(all.map((line) => line.split('=')[0]).sort()).toEqual(['lockit_access', 'lockit_refresh', SESSION_HINT_COOKIE]);
    const lines = all.filter((line) => !line.startsWith(`${SESSION_HINT_COOKIE}=`));
    for (const line of lines) {
      const attributes = line
        .split(';')
        .slice(1)
        .map((part) => part.trim().toLowerCase());
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=strict');
      expect(attributes).toContain('path=/');
      expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
      expect(attributes).not.toContain('secure');
    }
    expect(lines.find((line) => line.startsWith('lockit_access='))).toMatch(/Max-Age=900\b/);
    expect(lines.find((line) => line.startsWith('lockit_refresh='))).toMatch(new RegExp(`Max-Age=${14 * 24 * 60 * 60}\\b`));
  });

  it('are Secure when the request came over HTTPS', async () => {
    const { account } = await signUp(h);
    const response = await h
      .client()
      .post(
        apiPaths.login,
        { username: account.username, password: account.keys.authKey },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
    const lines = setCookieLines(response);
    // Access, refresh, the hint and the device cookie (for prelogin, sign-in and passkey sign-in).
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(line).toMatch(/;\s*Secure(;|$)/);
  });

  it('are the only place a token appears: no body, no header, no URL carries one', async () => {
    const { account, client } = await signUp(h);
    const answers: LightMyRequestResponse[] = [await login(client, account)];
    answers.push(await client.post(apiPaths.refreshToken));
    answers.push(await client.post(apiPaths.verifySession));
    answers.push(await client.get(apiPaths.profile));
    answers.push(await client.get(apiPaths.keyMaterial));
    answers.push(
      await client.post(apiPaths.addEntry, await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' })),
    );
    answers.push(await client.get(apiPaths.listEntries));
    const next = await makeKeyMaterial('another master password', account.vaultKeyBytes);
    answers.push(
      await client.put(apiPaths.changePassword, {
        oldPassword: account.keys.authKey,
        newPassword: next.keys.authKey,
        kdf: next.kdf,
        salt: next.salt,
        protectedKey: next.protectedKey,
        keyGeneration: 1,
      }),
    );
    const tokens = [...client.jar].filter(([name]) => name !== SESSION_HINT_COOKIE).map(([, value]) => value);
    for (const response of answers) expect(response.statusCode).toBeLessThan(300);
    // Every token issued on the way, not only the last ones.
    const issued = answers
      .flatMap((response) =>
        (response.cookies as Array<{ name: string; value: string }>).filter((cookie) => cookie.name !== SESSION_HINT_COOKIE),
      )
      .map((cookie) => cookie.value)
      .filter(Boolean);
    expect(issued.length).toBeGreaterThanOrEqual(6);
    for (const response of answers) expectNoTokenOutsideCookies(response, [...tokens, ...issued]);
  });
});

describe('refresh reuse detection', () => {
  it('within the 10 s grace: a replay gets 200 without cookies, the session lives, and the replay gains nothing', async () => {
    const { client } = await signedInUser(h);
    const replayer = client.clone();
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(200);
    h.clock.advance(9 * SECOND);
    const raced = await replayer.post(apiPaths.refreshToken);
    expect(raced.statusCode).toBe(200);
    expect(raced.headers['set-cookie']).toBeUndefined();
    // The replayer holds only the rotated-away pair: its access token no longer works.
    expect((await replayer.post(apiPaths.verifySession)).statusCode).toBe(401);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
  });

  it('from 10 s after the rotation: a replay ends the whole family', async () => {
    const { client } = await signedInUser(h);
    const replayer = client.clone();
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(200);
    h.clock.advance(10 * SECOND);
    expect((await replayer.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(401);
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(401);
  });

  it('with the grace set to 0: even an immediate replay ends the family', async () => {
    const { client } = await signedInUser(strict);
    const replayer = client.clone();
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(200);
    expect((await replayer.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it('a replay of a token two rotations old ends the family too', async () => {
    const { client } = await signedInUser(h);
    const oldest = client.clone();
    await client.post(apiPaths.refreshToken);
    h.clock.advance(11 * SECOND);
    await client.post(apiPaths.refreshToken);
    h.clock.advance(11 * SECOND);
    expect((await oldest.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(401);
  });
});

describe('lifetimes', () => {
  it('idle: a refresh 1 minute before 14 idle days works, 1 minute after it does not', async () => {
    const { account, client } = await signedInUser(h);
    const idle = h.client();
    expect((await login(idle, account)).statusCode).toBe(200);
    h.clock.advance(14 * 24 * 3600 * SECOND - 60 * SECOND);
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(200);
    h.clock.advance(2 * 60 * SECOND);
    expect((await idle.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
  });

  it('access: 1 second before 15 minutes works, at 15 minutes it does not', async () => {
    const { client } = await signedInUser(h);
    h.clock.advance(15 * 60 * SECOND - SECOND);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
    h.clock.advance(SECOND);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(401);
  });
});
