import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { apiPaths, endOtherSessionsResponseSchema, listSessionsResponseSchema, type DeviceSession } from '@lockit/contract';
import { newAccount, signUpAndVerify, type TestAccount } from './helpers/accounts';
import type { InjectClient } from './helpers/inject-client';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A verified account, signed up from a throwaway client that signs in nowhere. */
async function verifiedAccount(): Promise<TestAccount> {
  const account = await newAccount();
  await signUpAndVerify(h, h.client('192.0.2.250'), account);
  return account;
}

/** A browser at `address` with `userAgent`, signed in to `account`. */
async function signIn(account: TestAccount, address: string, userAgent: string): Promise<InjectClient> {
  const client = h.client(address);
  const response = await client.post(
    apiPaths.login,
    { username: account.username, password: account.keys.authKey },
    { headers: { 'user-agent': userAgent } },
  );
  expect(response.statusCode).toBe(200);
  return client;
}

async function listSessions(client: InjectClient): Promise<DeviceSession[]> {
  const response = await client.get(apiPaths.sessions);
  expect(response.statusCode).toBe(200);
  return listSessionsResponseSchema.parse(response.json()).data;
}

function currentOf(sessions: DeviceSession[]): DeviceSession {
  const current = sessions.filter((session) => session.current);
  expect(current).toHaveLength(1);
  return current[0]!;
}

async function userIdOf(account: TestAccount): Promise<string> {
  const row = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
  return row.id;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('GET /api/user/sessions', () => {
  it('shows a browser name the User-Agent invented as none (the page says "Unknown device")', async () => {
    const account = await verifiedAccount();
    const client = await signIn(account, '203.0.113.11', 'Lockit support: your vault is locked, call us/1.0 (X11)');
    expect(currentOf(await listSessions(client))).toMatchObject({ browser: null, system: null });
  });

  it("lists each sign-in's session with its parsed browser and system, address and times; the asker's marked current", async () => {
    const account = await verifiedAccount();
    const before = h.clock.now();
    const laptop = await signIn(account, '203.0.113.10', CHROME_LINUX);
    const desktop = await signIn(account, '198.51.100.20', FIREFOX_WINDOWS);

    const seenFromLaptop = await listSessions(laptop);
    expect(seenFromLaptop).toHaveLength(2);
    const byBrowser = new Map(seenFromLaptop.map((session) => [session.browser, session]));
    expect(byBrowser.get('Chrome 156')).toMatchObject({
      system: 'Linux',
      address: '203.0.113.10',
      signInAddress: '203.0.113.10',
      current: true,
    });
    expect(byBrowser.get('Firefox 128')).toMatchObject({
      system: 'Windows 10',
      address: '198.51.100.20',
      signInAddress: '198.51.100.20',
      current: false,
    });
    for (const session of seenFromLaptop) {
      expect(Date.parse(session.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(session.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
    }

    // The same two sessions, seen from the other device: the mark follows the asker.
    const seenFromDesktop = await listSessions(desktop);
    expect(currentOf(seenFromDesktop).browser).toBe('Firefox 128');
    expect(new Set(seenFromDesktop.map((session) => session.id))).toEqual(new Set(seenFromLaptop.map((session) => session.id)));
  });

  it('shows a phone as Safari on iOS, and a User-Agent that names nothing as unknown (null)', async () => {
    const account = await verifiedAccount();
    const phone = await signIn(account, '203.0.113.11', SAFARI_IPHONE);
    await signIn(account, '203.0.113.12', 'curl/8.5.0');
    const sessions = await listSessions(phone);
    expect(currentOf(sessions)).toMatchObject({ browser: 'Safari 17', system: 'iOS 17' });
    expect(sessions.find((session) => !session.current)).toMatchObject({ browser: null, system: null });
  });

  it('keeps the sign-in address and moves the last address with the session’s use, at most once a minute', async () => {
    const account = await verifiedAccount();
    const atHome = await signIn(account, '203.0.113.30', CHROME_LINUX);
    const onTheRoad = h.client('198.51.100.31');
    for (const [name, value] of atHome.jar) onTheRoad.jar.set(name, value);

    expect((await onTheRoad.post(apiPaths.verifySession)).statusCode).toBe(200);
    // Within the minute nothing is written: the row still says where it signed in.
    expect(currentOf(await listSessions(atHome))).toMatchObject({ address: '203.0.113.30', signInAddress: '203.0.113.30' });

    h.clock.advance(MINUTE + 1);
    const usedAt = h.clock.now();
    expect((await onTheRoad.post(apiPaths.verifySession)).statusCode).toBe(200);
    const moved = (await listSessions(onTheRoad))[0]!;
    expect(moved).toMatchObject({ address: '198.51.100.31', signInAddress: '203.0.113.30' });
    expect(Date.parse(moved.lastUsedAt)).toBeGreaterThanOrEqual(usedAt);

    // A refresh records the address it came from too.
    const elsewhere = h.client('192.0.2.32');
    for (const [name, value] of onTheRoad.jar) elsewhere.jar.set(name, value);
    expect((await elsewhere.post(apiPaths.refreshToken)).statusCode).toBe(200);
    expect((await listSessions(elsewhere))[0]).toMatchObject({ address: '192.0.2.32', signInAddress: '203.0.113.30' });
  });

  it('needs a session', async () => {
    const response = await h.client().get(apiPaths.sessions);
    expect(response.statusCode).toBe(401);
  });
});

describe('DELETE /api/user/sessions/{id}', () => {
  it('ends the other session at once: its access cookie and its refresh cookie both get 401; the current works on', async () => {
    const account = await verifiedAccount();
    const mine = await signIn(account, '203.0.113.40', CHROME_LINUX);
    const stolen = await signIn(account, '198.51.100.41', FIREFOX_WINDOWS);
    // One rotation first, so the session has a retired refresh token to take with it.
    const retired = stolen.clone();
    expect((await stolen.post(apiPaths.refreshToken)).statusCode).toBe(200);
    const other = (await listSessions(mine)).find((session) => !session.current)!;
    const byAccess = stolen.clone();
    byAccess.jar.delete('lockit_refresh');
    const byRefresh = stolen.clone();
    byRefresh.jar.delete('lockit_access');

    const ended = await mine.delete(apiPaths.session(other.id));
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ message: 'Session ended' });

    expect((await byAccess.post(apiPaths.verifySession)).statusCode).toBe(401);
    expect((await byAccess.get(apiPaths.listEntries)).statusCode).toBe(401);
    expect((await byRefresh.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await retired.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect(await h.db.selectFrom('retired_refresh_tokens').selectAll().where('session_id', '=', other.id).execute()).toEqual([]);
    expect(await h.db.selectFrom('sessions').selectAll().where('id', '=', other.id).execute()).toEqual([]);

    expect((await mine.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await listSessions(mine)).map((session) => session.current)).toEqual([true]);
  });

  it("answers 404 for another user's session and for an unknown id, and ends nothing", async () => {
    const account = await verifiedAccount();
    const mine = await signIn(account, '203.0.113.50', CHROME_LINUX);
    const stranger = await verifiedAccount();
    const theirs = await signIn(stranger, '198.51.100.51', FIREFOX_WINDOWS);
    const theirId = currentOf(await listSessions(theirs)).id;
    const rowsBefore = await h.db.selectFrom('sessions').select('id').orderBy('id').execute();

    for (const id of [theirId, theirId.toUpperCase(), crypto.randomUUID()]) {
      const response = await mine.delete(apiPaths.session(id));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'No session of yours with that id.' });
    }
    expect(await h.db.selectFrom('sessions').select('id').orderBy('id').execute()).toEqual(rowsBefore);
    expect((await theirs.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await mine.post(apiPaths.verifySession)).statusCode).toBe(200);
  });

  it('refuses its own session (that is logout) and an id that is not one, ending nothing', async () => {
    const account = await verifiedAccount();
    const mine = await signIn(account, '203.0.113.60', CHROME_LINUX);
    const own = currentOf(await listSessions(mine)).id;
    const refused = await mine.delete(apiPaths.session(own));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: 'This is the session you are using: sign out instead.' });
    const malformed = await mine.delete(apiPaths.session('not-a-session'));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'id must be a session id' });
    expect((await mine.post(apiPaths.verifySession)).statusCode).toBe(200);
  });
});

describe('POST /api/user/sessions/end-others', () => {
  it("ends every other session of the caller at once, keeps the caller's, and leaves other users alone", async () => {
    const account = await verifiedAccount();
    const mine = await signIn(account, '203.0.113.70', CHROME_LINUX);
    const others = [
      await signIn(account, '198.51.100.71', FIREFOX_WINDOWS),
      await signIn(account, '198.51.100.72', SAFARI_IPHONE),
    ];
    const stranger = await signIn(await verifiedAccount(), '192.0.2.73', CHROME_LINUX);

    const response = await mine.post(apiPaths.endOtherSessions);
    expect(response.statusCode).toBe(200);
    expect(endOtherSessionsResponseSchema.parse(response.json())).toEqual({
      message: 'Other sessions ended',
      data: { ended: 2 },
    });

    for (const other of others) {
      const byRefresh = other.clone();
      expect((await other.post(apiPaths.verifySession)).statusCode).toBe(401);
      expect((await byRefresh.post(apiPaths.refreshToken)).statusCode).toBe(401);
    }
    expect((await mine.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await stranger.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect(await listSessions(mine)).toHaveLength(1);
    // Nothing left to end.
    expect((await mine.post(apiPaths.endOtherSessions)).json()).toEqual({ message: 'Other sessions ended', data: { ended: 0 } });
  });
});

describe('what the answers reveal', () => {
  it('carry an opaque session id and the listed fields only: never a token or a token hash', async () => {
    const account = await verifiedAccount();
    const one = await signIn(account, '203.0.113.80', CHROME_LINUX);
    const two = await signIn(account, '198.51.100.81', FIREFOX_WINDOWS);
    const answers = [(await one.get(apiPaths.sessions)).body, (await two.get(apiPaths.sessions)).body];
    const secrets = [one, two].flatMap((client) => [client.jar.get('lockit_access')!, client.jar.get('lockit_refresh')!]);
    const rows = await h.db.selectFrom('sessions').select(['access_hash', 'refresh_hash']).execute();
    const hashes = [...secrets.map(sha256), ...rows.flatMap((row) => [row.access_hash, row.refresh_hash])];
    for (const answer of answers) {
      for (const secret of [...secrets, ...hashes]) expect(answer).not.toContain(secret);
      for (const session of JSON.parse(answer).data as object[]) {
        expect(Object.keys(session).sort()).toEqual(
          ['address', 'browser', 'createdAt', 'current', 'id', 'lastUsedAt', 'signInAddress', 'system'].sort(),
        );
      }
    }
  });

  it('lists no session past its idle limit', async () => {
    const account = await verifiedAccount();
    await signIn(account, '203.0.113.90', FIREFOX_WINDOWS);
    const kept = await signIn(account, '203.0.113.91', CHROME_LINUX);
    h.clock.advance(14 * DAY - MINUTE);
    expect((await kept.post(apiPaths.refreshToken)).statusCode).toBe(200);
    h.clock.advance(2 * MINUTE);
    // The idle one's row is still there (nothing has deleted it yet), but it is not listed.
    expect(
      await h.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', await userIdOf(account))
        .execute(),
    ).toHaveLength(2);
    expect((await listSessions(kept)).map((session) => session.browser)).toEqual(['Chrome 156']);
  });
});
