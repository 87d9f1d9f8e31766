import { describe, expect, it } from 'vitest';
import argon2 from 'argon2';
import { adminPaths, apiPaths } from '@lockit/contract';
import { createBody, login, newAccount, signedInUser, type TestAccount } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { newFolder } from './helpers/folders';
import type { InjectClient } from './helpers/inject-client';
import { useTestApp, type TestHarness } from './helpers/test-app';
import { TEST_DB_KIND } from './helpers/test-database';

const TOKEN = 'the-operators-admin-token-0123456789';
// Cheap parameters keep the suite fast; a verify reads them from the hash, as in production.
const TOKEN_HASH = await argon2.hash(TOKEN, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
const MINUTE = 60_000;

let logText = '';
const logStream = { write: (chunk: string) => void (logText += chunk) };

const h = useTestApp({ config: { adminTokenHash: TOKEN_HASH, logLevel: 'info' }, deps: { logStream } });

async function signedInAdmin(harness: TestHarness = h, ip?: string): Promise<InjectClient> {
  const admin = harness.client(ip);
  const response = await admin.post(adminPaths.signIn, { token: TOKEN });
  expect(response.statusCode).toBe(200);
  return admin;
}

async function userIdOf(account: TestAccount): Promise<string> {
  const row = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
  return row.id;
}

describe('admin API without ADMIN_TOKEN', () => {
  const off = useTestApp();

  it('does not exist: every admin path answers 404, signed in as a user or not', async () => {
    const { client } = await signedInUser(off);
    const id = crypto.randomUUID();
    for (const [method, path] of [
      ['POST', adminPaths.signIn],
      ['GET', adminPaths.session],
      ['GET', adminPaths.users],
      ['GET', adminPaths.diagnostics],
      ['POST', adminPaths.invites],
      ['POST', adminPaths.disableUser(id)],
      ['DELETE', adminPaths.user(id)],
    ] as const) {
      const response = await client.request(method, path, method === 'POST' ? { body: { token: TOKEN } } : {});
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
  });
});

describe('admin sign-in', () => {
  it('opens an admin session for the right token: HttpOnly, SameSite=Strict cookie limited to the admin API', async () => {
    const admin = h.client();
    const response = await admin.post(adminPaths.signIn, { token: TOKEN });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.idleMinutes).toBe(15);
    const cookie = (response.cookies as Array<Record<string, unknown>>).find((c) => c.name === 'lockit_admin')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/admin', maxAge: 3600 });
    expect((await admin.get(adminPaths.session)).statusCode).toBe(200);
    // Only the token's hash is stored.
    const rows = await h.db.selectFrom('admin_sessions').select('token_hash').execute();
    expect(rows.map((row) => row.token_hash)).not.toContain(cookie.value);
  });

  it('refuses a wrong token with 401 and opens nothing', async () => {
    const admin = h.client('203.0.113.50');
    const before = (await h.db.selectFrom('admin_sessions').select('id').execute()).length;
    const response = await admin.post(adminPaths.signIn, { token: 'not-the-token' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'That admin token is not right.' });
    expect(admin.jar.has('lockit_admin')).toBe(false);
    expect((await h.db.selectFrom('admin_sessions').select('id').execute()).length).toBe(before);
  });

  it('refuses admin routes without an admin session, and a user session is not one', async () => {
    const { client } = await signedInUser(h);
    for (const path of [adminPaths.users, adminPaths.diagnostics, adminPaths.session]) {
      const response = await client.get(path);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Please sign in with the admin token.' });
    }
    const forged = h.client();
    forged.jar.set('lockit_admin', client.jar.get('lockit_access')!);
    expect((await forged.get(adminPaths.users)).statusCode).toBe(401);
  });

  it('ends after 15 idle minutes, and after one hour however busy (test clock)', async () => {
    const idle = await signedInAdmin();
    h.clock.advance(14 * MINUTE);
    expect((await idle.get(adminPaths.session)).statusCode).toBe(200);
    h.clock.advance(14 * MINUTE);
    expect((await idle.get(adminPaths.session)).statusCode).toBe(200);
    h.clock.advance(15 * MINUTE + 1);
    expect((await idle.get(adminPaths.session)).statusCode).toBe(401);

    const busy = await signedInAdmin();
    for (let minute = 0; minute < 60; minute += 10) {
      expect((await busy.get(adminPaths.users)).statusCode).toBe(200);
      h.clock.advance(10 * MINUTE);
    }
    expect((await busy.get(adminPaths.users)).statusCode).toBe(401);
  });

  it('signs out: the session ends on the server and the cookie is cleared', async () => {
    const admin = await signedInAdmin();
    const copy = admin.clone();
    const response = await admin.post(adminPaths.signOut);
    expect(response.statusCode).toBe(200);
    expect(admin.jar.has('lockit_admin')).toBe(false);
    expect((await copy.get(adminPaths.users)).statusCode).toBe(401);
  });
});

describe('admin sign-in rate limit', () => {
  const limited = useTestApp({
    config: { adminTokenHash: TOKEN_HASH },
    rateLimits: { adminSignInPerIp: { points: 3, durationSeconds: 600 } },
  });

  it('answers 429 with Retry-After once an address has used its tries, even with the right token', async () => {
    const attacker = limited.client('198.51.100.20');
    for (let n = 0; n < 3; n += 1) expect((await attacker.post(adminPaths.signIn, { token: `guess-${n}` })).statusCode).toBe(401);
    const refused = await attacker.post(adminPaths.signIn, { token: TOKEN });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await limited.client('198.51.100.21').post(adminPaths.signIn, { token: TOKEN })).statusCode).toBe(200);
  });
});

describe('admin actions', () => {
  it('lists every account with created, last seen, verified, disabled, item count and size', async () => {
    const { account, client } = await signedInUser(h);
    await client.post(apiPaths.addEntry, await encryptEntry(account, { serviceName: 'Mail', username: 'me', password: 'pw' }));
    const pending = await newAccount();
    const created = await h.client().post(apiPaths.createUser, createBody(pending));
    expect(created.statusCode).toBe(201);
    const admin = await signedInAdmin();
    const response = await admin.get(adminPaths.users);
    expect(response.statusCode).toBe(200);
    const users = response.json().data.users as Array<Record<string, unknown>>;
    const listed = users.find((user) => user.username === account.username)!;
    expect(listed).toMatchObject({ email: account.email, verified: true, disabled: false, items: 1 });
    expect(listed.bytes).toBeGreaterThan(0);
    expect(Date.parse(listed.lastSeenAt as string)).toBeGreaterThan(0);
    expect(Date.parse(listed.createdAt as string)).toBeGreaterThan(0);
    expect(Object.keys(listed).sort()).toEqual(
      ['bytes', 'createdAt', 'disabled', 'email', 'id', 'items', 'lastSeenAt', 'twoFactor', 'username', 'verified'].sort(),
    );
    expect(users.find((user) => user.username === pending.username)).toMatchObject({
      verified: false,
      items: 0,
      bytes: 0,
      lastSeenAt: null,
    });
  });

  it('records last seen at sign-in and, at most once a minute, on session use', async () => {
    const { account, client } = await signedInUser(h);
    const id = await userIdOf(account);
    const seen = async () =>
      (await h.db.selectFrom('users').select('last_seen_at').where('id', '=', id).executeTakeFirstOrThrow()).last_seen_at;
    const atSignIn = await seen();
    expect(atSignIn).not.toBeNull();
    h.clock.advance(30_000);
    await client.get(apiPaths.profile);
    expect(await seen()).toBe(atSignIn);
    h.clock.advance(31_000);
    await client.get(apiPaths.profile);
    expect(await seen()).toBeGreaterThanOrEqual(atSignIn! + 61_000);
  });

  it('disables an account: sign-in refused with a clear message, every session ended at once; enabling lets it in again', async () => {
    const { account, client } = await signedInUser(h);
    const laptop = h.client();
    expect((await login(laptop, account)).statusCode).toBe(200);
    const id = await userIdOf(account);
    const admin = await signedInAdmin();

    const disabled = await admin.post(adminPaths.disableUser(id));
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({
      message: 'Account disabled; its sessions have ended',
      data: { user: { id, disabled: true } },
    });
    expect((await client.get(apiPaths.profile)).statusCode).toBe(401);
    expect((await laptop.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect(await h.db.selectFrom('sessions').select('id').where('user_id', '=', id).execute()).toEqual([]);
    const refused = await login(h.client(), account);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: "This account is disabled. Contact the server's operator." });
    expect(refused.cookies).toEqual([]);
    // A wrong key still gets the usual answer: the state is told only to whoever knows the key.
    expect((await h.client().post(apiPaths.login, { username: account.username, password: 'A'.repeat(43) })).statusCode).toBe(
      401,
    );
    expect((await admin.post(adminPaths.disableUser(id))).json().message).toBe('Account was already disabled');

    const enabled = await admin.post(adminPaths.enableUser(id));
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json()).toMatchObject({ message: 'Account enabled', data: { user: { id, disabled: false } } });
    expect((await login(h.client(), account)).statusCode).toBe(200);
  });

  it('ends every session of an account and says how many', async () => {
    const { account, client } = await signedInUser(h);
    await login(h.client(), account);
    const id = await userIdOf(account);
    const admin = await signedInAdmin();
    const response = await admin.post(adminPaths.endUserSessions(id));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Sessions ended', data: { ended: 2 } });
    expect((await client.get(apiPaths.profile)).statusCode).toBe(401);
    // Not disabled: the account signs in again.
    expect((await login(h.client(), account)).statusCode).toBe(200);
  });

  it('deletes an account and everything of it, leaving other accounts alone', async () => {
    const { account, client } = await signedInUser(h);
    const other = await signedInUser(h);
    await client.post(apiPaths.addEntry, await encryptEntry(account, { serviceName: 'S', username: 'u', password: 'p' }));
    await client.post(apiPaths.folders, await newFolder(account, 'Work'));
    await other.client.post(
      apiPaths.addEntry,
      await encryptEntry(other.account, { serviceName: 'T', username: 'u', password: 'p' }),
    );
    const id = await userIdOf(account);
    const admin = await signedInAdmin();
    const response = await admin.delete(adminPaths.user(id));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Account deleted' });
    for (const table of ['entries', 'folders', 'sessions', 'entry_history'] as const) {
      expect(await h.db.selectFrom(table).select('user_id').where('user_id', '=', id).execute(), table).toEqual([]);
    }
    expect(await h.db.selectFrom('users').select('id').where('id', '=', id).execute()).toEqual([]);
    expect((await client.get(apiPaths.profile)).statusCode).toBe(401);
    expect((await other.client.get(apiPaths.listEntries)).json().data).toHaveLength(1);
    expect((await admin.delete(adminPaths.user(id))).statusCode).toBe(404);
  });

  it('answers 404 for an unknown account and 400 for an id that is not one', async () => {
    const admin = await signedInAdmin();
    for (const path of [adminPaths.disableUser, adminPaths.enableUser, adminPaths.endUserSessions]) {
      const unknown = await admin.post(path(crypto.randomUUID()));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'No account with that id.' });
      const bad = await admin.post(path('alice'));
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'id must be a user id (a UUID)' });
    }
  });

  it('makes an invite whose link is shown to copy, for anyone or for one address', async () => {
    const admin = await signedInAdmin();
    const open = await admin.post(adminPaths.invites, {});
    expect(open.statusCode).toBe(200);
    expect(open.json().data).toMatchObject({ emailed: false });
    expect(open.json().data.link).toMatch(/^http:\/\/localhost(:\d+)?\/signup\?invite=[A-Za-z0-9_-]{43}$/);
    const addressed = await admin.post(adminPaths.invites, { email: 'friend@example.com' });
    expect(addressed.statusCode).toBe(200);
    expect(addressed.json().data.link).toMatch(/\/signup\?invite=/);
    const rows = await h.db.selectFrom('invites').select(['invited_by', 'email']).execute();
    expect(rows).toEqual(expect.arrayContaining([{ invited_by: null, email: 'friend@example.com' }]));
    expect((await admin.post(adminPaths.invites, { email: 'not an address' })).statusCode).toBe(400);
  });

  it('gives diagnostics as one text block: version, Node, database, migrations, mail, Redis, uptime; no secret', async () => {
    const admin = await signedInAdmin();
    const response = await admin.get(adminPaths.diagnostics);
    expect(response.statusCode).toBe(200);
    const text = response.json().data.text as string;
    expect(text).toMatch(/^Lockit diagnostics\nLockit version: \d+\.\d+\.\d+/);
    expect(text).toContain(`Node.js: ${process.version}`);
    expect(text).toMatch(
      TEST_DB_KIND === 'sqlite' ? /Database: SQLite 3\.\d+\.\d+, [\d.]+ (KiB|MiB)/ : /Database: PostgreSQL \d+/,
    );
    expect(text).toMatch(/Migrations: (\d+) applied of \1 known \(latest \d{4}-[a-z-]+\)/);
    // The test harness's SMTP sink: host and port only.
    expect(text).toMatch(/Mail: SMTP \(smtp, 127\.0\.0\.1:\d+\)/);
    expect(text).toContain('Redis: not configured');
    // Every cleanup job ran once when the app started.
    for (const job of ['expired-codes', 'expired-sessions', 'trash-purge', 'unverified-accounts']) {
      expect(text).toMatch(new RegExp(`Jobs: .*${job} ok (\\d+[dhm] )*\\d+s ago \\(\\d+ deleted\\)`));
    }
    expect(text).toMatch(/Uptime: (\d+[dhm] )*\d+s/);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(TOKEN_HASH);
    expect(text).not.toContain(h.config.serverSecret.toString('utf8'));
  });
});

describe('no vault content anywhere in admin answers or logs', () => {
  it('shows no ciphertext, entry id or folder name of a user with entries and folders', async () => {
    const { account, client } = await signedInUser(h);
    const entry = await encryptEntry(account, {
      serviceName: 'Secret Bank',
      username: 'me',
      password: 'hunter2',
      url: 'https://bank.example',
      notes: 'pin 1234',
    });
    expect((await client.post(apiPaths.addEntry, entry)).statusCode).toBe(201);
    const folder = await newFolder(account, 'Top Secret Folder');
    expect((await client.post(apiPaths.folders, folder)).statusCode).toBe(201);
    const id = await userIdOf(account);
    logText = '';

    const admin = await signedInAdmin();
    const answers = [
      await admin.get(adminPaths.session),
      await admin.get(adminPaths.users),
      await admin.get(adminPaths.diagnostics),
      await admin.post(adminPaths.invites, {}),
      await admin.post(adminPaths.endUserSessions(id)),
      await admin.post(adminPaths.disableUser(id)),
      await admin.post(adminPaths.enableUser(id)),
      await admin.delete(adminPaths.user(id)),
      await admin.post(adminPaths.signOut),
    ].map((response) => {
      expect(response.statusCode).toBe(200);
      return response.body;
    });
    const secrets = [
      entry.id,
      entry.serviceName,
      entry.username,
      entry.password,
      entry.url!,
      entry.notes!,
      folder.id,
      folder.name,
      'Secret Bank',
      'Top Secret Folder',
      'hunter2',
      TOKEN,
      account.keys.authKey,
    ];
    for (const secret of secrets) {
      for (const body of answers) expect(body).not.toContain(secret);
      expect(logText).not.toContain(secret);
    }
    // Every action was logged with its target's id, and nothing more of the account.
    const actions = logText
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => typeof line.adminAction === 'string');
    expect(actions.map((line) => line.adminAction)).toEqual([
      'sign-in',
      'list-users',
      'diagnostics',
      'invite',
      'end-sessions',
      'disable',
      'enable',
      'delete',
      'sign-out',
    ]);
    expect(actions.filter((line) => line.targetUserId === id).length).toBe(4);
    expect(logText).not.toContain(account.email);
    expect(logText).not.toMatch(/\/signup\?invite=/);
  });
});
