import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Insertable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { loadConfig } from '../src/config/load-config';
import { createRepositories } from '../src/db/repositories/index';
import { createExpiredRowsRepository } from '../src/db/repositories/expired-rows-repository';
import type { UsersTable } from '../src/db/schema';
import { deleteExpiredCodes, deleteExpiredSessions, deleteUnverifiedAccounts } from '../src/jobs/cleanup-jobs';
import { CLEANUP_BATCH } from '../src/jobs/delete-in-batches';
import { ADMIN_IDLE_MS } from '../src/admin/admin-sessions';
import { createBody, newAccount, requestCode } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const HOUR = 60 * 60 * 1000;
const h = useTestApp();

/** The job as a process runs it, at a moment of the test's choosing. */
const at = (now: number) => ({ db: h.db, repos: createRepositories(h.db), config: h.config, now: () => now });
const go = () => new AbortController().signal;

/** Users straight into the table (the jobs look at times only); returns their ids. */
async function insertUsers(count: number, times: { created_at: number; verified_at: number | null }) {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (let start = 0; start < count; start += 500) {
    const rows = ids.slice(start, start + 500).map(
      (id) =>
        ({
          id,
          username: id,
          username_folded: id,
          email: `${id}@example.com`,
          email_folded: `${id}@example.com`,
          fullname: 'x',
          auth_hash: 'x',
          kdf_algorithm: 'argon2id',
          kdf_memory_kib: 1,
          kdf_iterations: 1,
          kdf_parallelism: 1,
          salt: 'x',
          protected_key: 'x',
          updated_at: times.created_at,
          ...times,
        }) as Insertable<UsersTable>,
    );
    await h.db.insertInto('users').values(rows).execute();
  }
  return ids;
}

async function insertCodes(userIds: readonly string[], expiresAt: number) {
  for (let start = 0; start < userIds.length; start += 500) {
    const rows = userIds
      .slice(start, start + 500)
      .map((user_id) => ({ user_id, code_hash: 'x', expires_at: expiresAt, attempts: 0, sent_at: expiresAt - 600_000 }));
    await h.db.insertInto('verification_codes').values(rows).execute();
  }
}

async function insertSession(userId: string, limits: { refresh_expires_at: number; absolute_expires_at: number }) {
  const id = randomUUID();
  await h.db
    .insertInto('sessions')
    .values({
      id,
      user_id: userId,
      access_hash: randomUUID(),
      access_expires_at: 0,
      refresh_hash: randomUUID(),
      ...limits,
      user_agent: null,
      created_at: 0,
      last_used_at: 0,
    })
    .execute();
  return id;
}

async function retireToken(sessionId: string, retiredAt: number) {
  const token_hash = randomUUID();
  await h.db.insertInto('retired_refresh_tokens').values({ token_hash, session_id: sessionId, retired_at: retiredAt }).execute();
  return token_hash;
}

const codesOf = async (ids: readonly string[]) =>
  (await h.db.selectFrom('verification_codes').select('user_id').where('user_id', 'in', ids).execute()).map((row) => row.user_id);
const usersIn = async (ids: readonly string[]) =>
  (await h.db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((row) => row.id);

describe('the expired-codes job', () => {
  it('deletes codes whose lifetime is over (as verify-code counts it) and keeps live ones', async () => {
    const now = Date.now();
    // Verified, so that the unverified-accounts tests below only meet their own users.
    const [past, boundary, live] = await insertUsers(3, { created_at: now, verified_at: now });
    await insertCodes([past!], now - 1);
    await insertCodes([boundary!], now);
    await insertCodes([live!], now + 1);
    expect(await deleteExpiredCodes(at(now), go())).toEqual({
      codes: 2,
      pendingSignIns: 0,
      webauthnChallenges: 0,
      keyRotations: 0,
    });
    expect(await codesOf([past!, boundary!, live!])).toEqual([live]);
  });

  it('deletes pending sign-ins and WebAuthn challenges past their lifetime, and keeps live ones', async () => {
    const now = Date.now() + 2_000 * HOUR;
    const [user] = await insertUsers(1, { created_at: now, verified_at: now });
    const pending = (id: string, expiresAt: number) => ({
      id,
      user_id: user!,
      token_hash: id,
      known_device: 0,
      address: null,
      user_agent: null,
      webauthn_challenge: null,
      created_at: expiresAt - 300_000,
      expires_at: expiresAt,
    });
    const challenge = (id: string, expiresAt: number) => ({
      id,
      user_id: null,
      purpose: 'sign-in',
      challenge: id,
      created_at: expiresAt - 300_000,
      expires_at: expiresAt,
    });
    const [oldPending, livePending, oldChallenge, liveChallenge] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await h.db
      .insertInto('pending_sign_ins')
      .values([pending(oldPending, now), pending(livePending, now + 1)])
      .execute();
    await h.db
      .insertInto('webauthn_challenges')
      .values([challenge(oldChallenge, now - 1), challenge(liveChallenge, now + 1)])
      .execute();

    expect(await deleteExpiredCodes(at(now), go())).toMatchObject({ pendingSignIns: 1, webauthnChallenges: 1 });
    const pendingLeft = await h.db.selectFrom('pending_sign_ins').select('id').where('user_id', '=', user!).execute();
    expect(pendingLeft.map((row) => row.id)).toEqual([livePending]);
    const challengesLeft = await h.db
      .selectFrom('webauthn_challenges')
      .select('id')
      .where('id', 'in', [oldChallenge, liveChallenge])
      .execute();
    expect(challengesLeft.map((row) => row.id)).toEqual([liveChallenge]);
  });

  it('drains a backlog of 5,000 in batches of CLEANUP_BATCH, handing the event loop back between them', async () => {
    const now = Date.now() + 1_000 * HOUR;
    const ids = await insertUsers(5_000, { created_at: now, verified_at: now });
    await insertCodes(ids, now - 1);
    const [kept] = await insertUsers(1, { created_at: now, verified_at: now });
    await insertCodes([kept!], now + 1);

    // Told to stop before it starts, it still finishes its first batch, and only that one.
    const stopped = new AbortController();
    stopped.abort();
    expect(await deleteExpiredCodes(at(now), stopped.signal)).toEqual({
      codes: CLEANUP_BATCH,
      pendingSignIns: 0,
      webauthnChallenges: 0,
      keyRotations: 0,
    });

    // Counts turns of the event loop while the job runs (one per turn, whatever the timing).
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const started = performance.now();
    let deleted: number;
    try {
      // The earlier test's live code has expired by this moment too.
      deleted = (await deleteExpiredCodes(at(now), go())).codes;
    } finally {
      counting = false;
    }
    const elapsedMs = performance.now() - started;
    expect(deleted).toBeGreaterThanOrEqual(5_000 - CLEANUP_BATCH);
    // Nine batches: the loop turned between them, so requests were served meanwhile.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(deleted / CLEANUP_BATCH));
    console.info(`expired-codes: ${deleted} codes in ${elapsedMs.toFixed(0)} ms, ${turns} event-loop turns`);
    expect(await codesOf([...ids, kept!])).toEqual([kept]);
  });
});

describe('the expired-sessions job', () => {
  it('deletes sessions past either limit with their retired tokens, and retired tokens no browser can hold any more', async () => {
    const now = Date.now() + 2_000 * HOUR;
    const [userId] = await insertUsers(1, { created_at: 0, verified_at: 0 });
    const idleOver = await insertSession(userId!, { refresh_expires_at: now, absolute_expires_at: now + HOUR });
    const absoluteOver = await insertSession(userId!, { refresh_expires_at: now + HOUR, absolute_expires_at: now - 1 });
    const live = await insertSession(userId!, { refresh_expires_at: now + 1, absolute_expires_at: now + HOUR });
    const ofExpired = await retireToken(idleOver, now - 1);
    const { refreshTokenIdleMs } = h.config.timing;
    const tooOld = await retireToken(live, now - refreshTokenIdleMs);
    const stillSendable = await retireToken(live, now - refreshTokenIdleMs + 1);
    const justRotated = await retireToken(live, now);

    expect(await deleteExpiredSessions(at(now), go())).toEqual({ sessions: 2, retiredTokens: 1, adminSessions: 0 });
    const sessions = await h.db.selectFrom('sessions').select('id').where('id', 'in', [idleOver, absoluteOver, live]).execute();
    expect(sessions.map((row) => row.id)).toEqual([live]);
    const retired = await h.db
      .selectFrom('retired_refresh_tokens')
      .select('token_hash')
      .where('token_hash', 'in', [ofExpired, tooOld, stillSendable, justRotated])
      .orderBy('retired_at')
      .execute();
    expect(retired.map((row) => row.token_hash)).toEqual([stillSendable, justRotated]);
  });

  it('deletes admin sessions past their idle or absolute limit and keeps live ones', async () => {
    const now = Date.now() + 3_000 * HOUR;
    const adminSession = (id: string, times: { expires_at: number; last_used_at: number }) => ({
      id,
      token_hash: `hash-${id}`,
      created_at: now - HOUR,
      ...times,
    });
    const ids = { idle: randomUUID(), ended: randomUUID(), live: randomUUID() };
    await h.db
      .insertInto('admin_sessions')
      .values([
        adminSession(ids.idle, { expires_at: now + HOUR, last_used_at: now - ADMIN_IDLE_MS }),
        adminSession(ids.ended, { expires_at: now, last_used_at: now }),
        adminSession(ids.live, { expires_at: now + 1, last_used_at: now - ADMIN_IDLE_MS + 1 }),
      ])
      .execute();

    const { adminSessions } = await deleteExpiredSessions(at(now), go());
    expect(adminSessions).toBe(2);
    const left = await h.db.selectFrom('admin_sessions').select('id').where('id', 'in', Object.values(ids)).execute();
    expect(left.map((row) => row.id)).toEqual([ids.live]);
  });
});

describe('the unverified-accounts job', () => {
  it('deletes accounts unverified for UNVERIFIED_ACCOUNT_HOURS with their codes and sessions, and nothing else', async () => {
    const now = Date.now() + 3_000 * HOUR;
    const lifetime = h.config.unverifiedAccountHours * HOUR;
    const [old] = await insertUsers(1, { created_at: now - lifetime, verified_at: null });
    const [young] = await insertUsers(1, { created_at: now - lifetime + 1, verified_at: null });
    const [verified] = await insertUsers(1, { created_at: now - 100 * lifetime, verified_at: now - 100 * lifetime });
    await insertCodes([old!, young!], now + HOUR);
    const session = await insertSession(old!, { refresh_expires_at: now + HOUR, absolute_expires_at: now + HOUR });
    await retireToken(session, now);

    expect(await deleteUnverifiedAccounts(at(now), go())).toEqual({ accounts: 1 });
    expect((await usersIn([old!, young!, verified!])).sort()).toEqual([young, verified].sort());
    expect(await codesOf([old!, young!])).toEqual([young]);
    expect(await h.db.selectFrom('sessions').select('id').where('user_id', '=', old!).execute()).toEqual([]);
    expect(
      await h.db.selectFrom('retired_refresh_tokens').select('token_hash').where('session_id', '=', session).execute(),
    ).toEqual([]);
  });

  it('keeps an account verified after it was found', async () => {
    const now = Date.now() + 4_000 * HOUR;
    const cutoff = now - h.config.unverifiedAccountHours * HOUR;
    const ids = await insertUsers(2, { created_at: cutoff - 1, verified_at: null });
    const rows = createExpiredRowsRepository(h.db);
    const found = await rows.findUnverifiedUsers(cutoff, CLEANUP_BATCH);
    expect(found).toEqual(expect.arrayContaining(ids));
    await h.db.updateTable('users').set({ verified_at: now }).where('id', '=', ids[0]!).execute();
    expect(await rows.deleteUnverifiedUsers(found, cutoff)).toBe(found.length - 1);
    expect(await usersIn(ids)).toEqual([ids[0]]);
  });

  it('frees the name and e-mail of an account never verified, for a new sign-up', async () => {
    const first = await newAccount();
    const client = h.client();
    expect((await client.post(apiPaths.createUser, createBody(first))).statusCode).toBe(201);
    await requestCode(h, client, first);
    const again = { ...(await newAccount()), username: first.username, email: first.email };
    expect((await client.post(apiPaths.createUser, createBody(again))).statusCode).toBe(409);

    h.clock.advance(h.config.unverifiedAccountHours * HOUR + 1);
    expect(await deleteUnverifiedAccounts({ ...at(0), now: h.clock.now }, go())).toEqual({ accounts: 1 });
    const created = await client.post(apiPaths.createUser, createBody(again));
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toEqual({ username: first.username, email: first.email });
    // The new account gets its own code; the old one's went with it.
    expect(await requestCode(h, client, again)).toMatch(/^\S{6}$/);
  });
});

describe('UNVERIFIED_ACCOUNT_HOURS', () => {
  const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lockit-jobs-config-')), SERVER_SECRET: 's'.repeat(40) };

  it('defaults to 24 and reads whole hours', async () => {
    expect((await loadConfig(env)).unverifiedAccountHours).toBe(24);
    expect((await loadConfig({ ...env, UNVERIFIED_ACCOUNT_HOURS: ' 72 ' })).unverifiedAccountHours).toBe(72);
  });

  it.each([
    ['0', 'UNVERIFIED_ACCOUNT_HOURS must be between 1 and 8760'],
    ['8761', 'UNVERIFIED_ACCOUNT_HOURS must be between 1 and 8760'],
    ['1.5', 'UNVERIFIED_ACCOUNT_HOURS must be a whole number'],
    ['a day', 'UNVERIFIED_ACCOUNT_HOURS must be a number'],
  ])('refuses %j at start with a clear message', async (value, message) => {
    await expect(loadConfig({ ...env, UNVERIFIED_ACCOUNT_HOURS: value })).rejects.toThrow(message);
  });
});
