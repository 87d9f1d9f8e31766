import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { DEFAULT_RATE_LIMITS } from '../src/config/rate-limit-settings';
import { login, makeKeyMaterial, newAccount, signUpAndVerify, type TestAccount } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

/** The product's sign-in limits, exactly as shipped. */
const h = useTestApp({
  rateLimits: {
    loginPerIp: DEFAULT_RATE_LIMITS.loginPerIp,
    loginFreeFailures: DEFAULT_RATE_LIMITS.loginFreeFailures,
    loginLockoutBaseSeconds: DEFAULT_RATE_LIMITS.loginLockoutBaseSeconds,
    loginLockoutMaxSeconds: DEFAULT_RATE_LIMITS.loginLockoutMaxSeconds,
    loginFailureMemorySeconds: DEFAULT_RATE_LIMITS.loginFailureMemorySeconds,
    loginPerAccount: DEFAULT_RATE_LIMITS.loginPerAccount,
    loginPerDevice: DEFAULT_RATE_LIMITS.loginPerDevice,
    passwordCheckPerAccount: DEFAULT_RATE_LIMITS.passwordCheckPerAccount,
  },
});

const WRONG_KEY = 'A'.repeat(43);
const MAX_LOCKOUT_SECONDS = 15 * 60;
let ipCounter = 0;
/** A client address no other test uses. */
const freshIp = () => `10.${Math.floor(++ipCounter / 65_000)}.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}`;

afterEach(() => {
  vi.useRealTimers();
});

/**
 * The limiters and the app read the same clock: `Date`. Frozen, it moves only when a test
 * says so, so hours of an attack take no real time.
 */
function freezeTime() {
  vi.useFakeTimers({ toFake: ['Date'] });
  return { advance: (ms: number) => vi.setSystemTime(Date.now() + ms) };
}

async function verifiedAccount(): Promise<TestAccount> {
  const account = await newAccount();
  await signUpAndVerify(h, h.client(freshIp()), account);
  return account;
}

function expectLimited(response: LightMyRequestResponse): number {
  expect(response.statusCode).toBe(429);
  const seconds = Number(response.headers['retry-after']);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(MAX_LOCKOUT_SECONDS);
  expect(response.json().message).toMatch(/^Too many attempts\. Try again in \d+ (seconds?|minutes?)\.$/);
  return seconds;
}

describe('1,000 wrong passwords', () => {
  it('from one address, one every 10 s: lockouts of 1, 2, 4, 8 then 15 minutes; the owner signs in from elsewhere throughout', async () => {
    const account = await verifiedAccount();
    const time = freezeTime();
    const attacker = h.client('203.0.113.7');
    const start = Date.now();
    const checkedAt: number[] = [];
    let refused = 0;
    for (let attempt = 1; attempt <= 1000; attempt += 1) {
      const response = await attacker.post(apiPaths.login, { username: account.username, password: WRONG_KEY });
      if (response.statusCode === 401) checkedAt.push((Date.now() - start) / 1000);
      else {
        expectLimited(response);
        refused += 1;
      }
      if (attempt % 100 === 0)
        expect((await login(h.client(freshIp()), account)).statusCode, `owner at attempt ${attempt}`).toBe(200);
      time.advance(10_000);
    }

    // Five free tries, then one try per lockout, each twice as long, up to 15 minutes.
    expect(checkedAt.slice(0, 6)).toEqual([0, 10, 20, 30, 40, 50]);
    const gaps = checkedAt
      .slice(5)
      .map((at, index, later) => (index === 0 ? 0 : at - later[index - 1]!))
      .slice(1);
    expect(gaps.slice(0, 5)).toEqual([60, 120, 240, 480, 900]);
    expect(gaps.slice(5).every((gap) => gap === 900)).toBe(true);
    expect(checkedAt).toHaveLength(20); // of 1,000 sent over 2 h 47 min
    expect(refused).toBe(980);

    // The owner behind the attacker's address (one NAT) waits out the lockout, no longer.
    const locked = await login(h.client('203.0.113.7'), account);
    time.advance(expectLimited(locked) * 1000);
    expect((await login(h.client('203.0.113.7'), account)).statusCode).toBe(200);
  });

  it('from 1,000 addresses at once: 10 are checked; a new browser waits at most 15 minutes, the known one not at all', async () => {
    const account = await verifiedAccount();
    const known = h.client(freshIp());
    expect((await login(known, account)).statusCode).toBe(200);
    const time = freezeTime();
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () =>
        h.client(freshIp()).post(apiPaths.login, { username: account.username, password: WRONG_KEY }),
      ),
    );
    const checked = answers.filter((response) => response.statusCode === 401);
    expect(checked).toHaveLength(DEFAULT_RATE_LIMITS.loginPerAccount.points);
    for (const response of answers) if (response.statusCode !== 401) expectLimited(response);

    // The browser that signed in before carries its device cookie: strangers' failures do not count for it.
    expect((await login(known, account)).statusCode).toBe(200);
    const owner = h.client(freshIp());
    const wait = expectLimited(await login(owner, account));
    time.advance(wait * 1000);
    expect((await login(owner, account)).statusCode).toBe(200);
  });

  it('as a burst from one address: the free tries and one more are checked, not one per request', async () => {
    const account = await verifiedAccount();
    freezeTime();
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => h.client(ip).post(apiPaths.login, { username: account.username, password: WRONG_KEY })),
    );
    expect(answers.filter((response) => response.statusCode === 401)).toHaveLength(DEFAULT_RATE_LIMITS.loginFreeFailures + 1);
    expect(answers.filter((response) => response.statusCode === 429)).toHaveLength(
      40 - DEFAULT_RATE_LIMITS.loginFreeFailures - 1,
    );
    expect((await login(h.client(freshIp()), account)).statusCode).toBe(200);
  });
});

describe('sign-in lockout', () => {
  it('refuses even the right key from the locked address, with Retry-After', async () => {
    const account = await verifiedAccount();
    freezeTime();
    const ip = freshIp();
    for (let i = 0; i < 6; i += 1)
      expect((await h.client(ip).post(apiPaths.login, { username: account.username, password: WRONG_KEY })).statusCode).toBe(401);
    const locked = await login(h.client(ip), account);
    expect(expectLimited(locked)).toBe(60);
    expect(locked.json().message).toBe('Too many attempts. Try again in 1 minute.');
  });

  it('forgets the run of failures after a correct sign-in from that address', async () => {
    const account = await verifiedAccount();
    freezeTime();
    const ip = freshIp();
    const fail = () => h.client(ip).post(apiPaths.login, { username: account.username, password: WRONG_KEY });
    for (let i = 0; i < 4; i += 1) expect((await fail()).statusCode).toBe(401);
    expect((await login(h.client(ip), account)).statusCode).toBe(200);
    // Without the reset, the run would be 4 + 2 and the second of these would be locked out.
    for (let i = 0; i < 6; i += 1) expect((await fail()).statusCode).toBe(401);
    expectLimited(await fail());
  });

  it('locks unknown names the same way (no difference that reveals existence)', async () => {
    freezeTime();
    const ip = freshIp();
    const fail = () => h.client(ip).post(apiPaths.login, { username: 'ghost_lockout', password: WRONG_KEY });
    for (let i = 0; i < 6; i += 1) expect((await fail()).statusCode).toBe(401);
    expectLimited(await fail());
  });

  it('rations wrong current passwords at change-password per account (a stolen cookie is no guessing oracle)', async () => {
    const account = await newAccount();
    const thief = h.client(freshIp());
    await signUpAndVerify(h, thief, account);
    await login(thief, account);
    const next = await makeKeyMaterial('the next password', account.vaultKeyBytes);
    freezeTime();
    const body = {
      oldPassword: WRONG_KEY,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration: 1,
    };
    const checks = DEFAULT_RATE_LIMITS.passwordCheckPerAccount.points;
    for (let i = 0; i < checks; i += 1) expect((await thief.put(apiPaths.changePassword, body)).statusCode).toBe(403);
    expectLimited(await thief.put(apiPaths.changePassword, body));
    expectLimited(await thief.put(apiPaths.changePassword, { ...body, oldPassword: account.keys.authKey }));
    // Its own limit, not sign-in's: the account still signs in from anywhere.
    expect((await login(h.client(freshIp()), account)).statusCode).toBe(200);
  });

  it('change-password is not behind the sign-in limits strangers fill', async () => {
    const account = await newAccount();
    const owner = h.client(freshIp());
    await signUpAndVerify(h, owner, account);
    expect((await login(owner, account)).statusCode).toBe(200);
    freezeTime();
    // Strangers use up the account's sign-in checks and lock out the owner's address pair.
    for (let i = 0; i < DEFAULT_RATE_LIMITS.loginPerAccount.points; i += 1)
      await h.client(freshIp()).post(apiPaths.login, { username: account.username, password: WRONG_KEY });
    expectLimited(await login(h.client(freshIp()), account));
    const next = await makeKeyMaterial('the owner changes it anyway', account.vaultKeyBytes);
    const changed = await owner.put(apiPaths.changePassword, {
      oldPassword: account.keys.authKey,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration: 1,
    });
    expect(changed.statusCode).toBe(200);
  });
});
