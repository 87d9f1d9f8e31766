import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const SIGN_IN = { message: 'Please sign in.' };
const ENDED = { message: 'Your session has ended. Please sign in again.' };
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function sha256(text: string) {
  return createHash('sha256').update(text).digest('hex');
}

describe('POST /api/users/verify', () => {
  it('answers Success and the username for a valid session', async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.post(apiPaths.verifySession);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Success', data: { username: account.username } });
  });

  it('answers 401 "Please sign in." without a session or with a forged cookie', async () => {
    const anonymous = await h.client().post(apiPaths.verifySession);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(SIGN_IN);
    const forged = h.client();
    forged.jar.set('lockit_access', 'A'.repeat(43));
    expect((await forged.post(apiPaths.verifySession)).json()).toEqual(SIGN_IN);
  });

  it('stops accepting the access token after 15 minutes', async () => {
    const { client } = await signedInUser(h);
    h.clock.advance(15 * MINUTE + 1);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(401);
  });
});

describe('session storage', () => {
  it('stores only SHA-256 hashes of the tokens', async () => {
    const { client } = await signedInUser(h);
    const access = client.jar.get('lockit_access')!;
    const refresh = client.jar.get('lockit_refresh')!;
    const row = await h.db.selectFrom('sessions').selectAll().where('access_hash', '=', sha256(access)).executeTakeFirstOrThrow();
    expect(row.refresh_hash).toBe(sha256(refresh));
    const everything = JSON.stringify(await h.db.selectFrom('sessions').selectAll().execute());
    expect(everything).not.toContain(access);
    expect(everything).not.toContain(refresh);
  });

  it('records the user agent', async () => {
    const { client } = await signedInUser(h);
    const row = await h.db
      .selectFrom('sessions')
      .selectAll()
      .where('access_hash', '=', sha256(client.jar.get('lockit_access')!))
      .executeTakeFirstOrThrow();
    expect(row.user_agent).toBe('lightMyRequest');
  });
});

describe('POST /api/users/refresh-token', () => {
  it('rotates both cookies; the old access token stops working', async () => {
    const { client } = await signedInUser(h);
    const before = client.clone();
    const response = await client.post(apiPaths.refreshToken);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Token refreshed' });
    expect(client.jar.get('lockit_access')).not.toBe(before.jar.get('lockit_access'));
    expect(client.jar.get('lockit_refresh')).not.toBe(before.jar.get('lockit_refresh'));
    expect(response.body).not.toContain(client.jar.get('lockit_access')!);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await before.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it('brings back an expired access token', async () => {
    const { client } = await signedInUser(h);
    h.clock.advance(20 * MINUTE);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(401);
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(200);
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
  });

  it('answers 401 and clears the cookies without a refresh cookie or with an unknown one', async () => {
    const none = await h.client().post(apiPaths.refreshToken);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(ENDED);
    const unknown = h.client();
    unknown.jar.set('lockit_refresh', 'B'.repeat(43));
    unknown.jar.set('lockit_access', 'C'.repeat(43));
    const response = await unknown.post(apiPaths.refreshToken);
    expect(response.json()).toEqual(ENDED);
    expect(unknown.jar.size).toBe(0);
  });

  it('ends the whole session when a rotated refresh token is presented again (theft)', async () => {
    const { client } = await signedInUser(h);
    const thief = client.clone();
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(200);
    h.clock.advance(11_000);
    const replay = await thief.post(apiPaths.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual(ENDED);
    // The legitimate holder's newer tokens die with the family.
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(401);
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(401);
  });

  it('treats a replay within a few seconds as two tabs racing: no new cookies, session kept', async () => {
    const { client } = await signedInUser(h);
    const otherTab = client.clone();
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(200);
    const raced = await otherTab.post(apiPaths.refreshToken);
    expect(raced.statusCode).toBe(200);
    expect(raced.headers['set-cookie']).toBeUndefined();
    expect((await client.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(200);
  });

  it('ends a session idle for more than 14 days', async () => {
    const { client } = await signedInUser(h);
    h.clock.advance(14 * DAY + MINUTE);
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(401);
  });

  it('keeps a session used within 14 days, but not past 30 days in total', async () => {
    const { client } = await signedInUser(h);
    for (let day = 10; day < 30; day += 10) {
      h.clock.advance(10 * DAY);
      expect((await client.post(apiPaths.refreshToken)).statusCode, `day ${day}`).toBe(200);
    }
    const lastRefresh = client.clone();
    h.clock.advance(10 * DAY);
    expect((await client.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await lastRefresh.post(apiPaths.verifySession)).statusCode).toBe(401);
  });

  it('caps the refresh cookie at the absolute session end', async () => {
    const { client } = await signedInUser(h);
    h.clock.advance(10 * DAY);
    await client.post(apiPaths.refreshToken);
    h.clock.advance(10 * DAY);
    const response = await client.post(apiPaths.refreshToken);
    const refresh = (response.cookies as Array<{ name: string; maxAge?: number }>).find((c) => c.name === 'lockit_refresh')!;
    expect(refresh.maxAge).toBeLessThanOrEqual(10 * 24 * 60 * 60);
    expect(refresh.maxAge).toBeGreaterThan(10 * 24 * 60 * 60 - 60);
  });
});

describe('POST /api/users/logout', () => {
  it('ends the session: the old cookie fails on the very next request', async () => {
    const { client } = await signedInUser(h);
    const copy = client.clone();
    const response = await client.post(apiPaths.logout);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Logged out' });
    // Only the device cookie stays: the browser remains the owner's known device (decision 0047).
    expect([...client.jar.keys()]).toEqual(['lockit_device']);
    expect((await copy.post(apiPaths.verifySession)).json()).toEqual(SIGN_IN);
    expect((await copy.post(apiPaths.refreshToken)).statusCode).toBe(401);
  });

  it('ends the session with only the refresh cookie (access token expired)', async () => {
    const { client } = await signedInUser(h);
    const copy = client.clone();
    client.jar.delete('lockit_access');
    expect((await client.post(apiPaths.logout)).statusCode).toBe(200);
    expect((await copy.post(apiPaths.verifySession)).statusCode).toBe(401);
    expect((await copy.post(apiPaths.refreshToken)).statusCode).toBe(401);
  });

  it('leaves the other sessions of the user alone', async () => {
    const { account, client } = await signedInUser(h);
    const laptop = h.client();
    await laptop.post(apiPaths.login, { username: account.username, password: account.keys.authKey });
    await client.post(apiPaths.logout);
    expect((await laptop.post(apiPaths.verifySession)).statusCode).toBe(200);
  });

  it('succeeds without a session, with an empty JSON body too', async () => {
    const response = await h.client().post(apiPaths.logout, undefined, { headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Logged out' });
  });
});
