import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { DEFAULT_RATE_LIMITS } from '../src/config/rate-limit-settings';
import { DEVICE_COOKIE, DEVICE_COOKIE_LIFETIME_MS, DEVICE_COOKIE_PATHS, makeDeviceCookieValue } from '../src/auth/device-cookies';
import { login, newAccount, signUpAndVerify, type TestAccount } from './helpers/accounts';
import type { InjectClient } from './helpers/inject-client';
import { useTestApp } from './helpers/test-app';

/** The product's sign-in and prelogin limits, exactly as shipped. */
const h = useTestApp({
  rateLimits: {
    loginPerIp: DEFAULT_RATE_LIMITS.loginPerIp,
    loginFreeFailures: DEFAULT_RATE_LIMITS.loginFreeFailures,
    loginLockoutBaseSeconds: DEFAULT_RATE_LIMITS.loginLockoutBaseSeconds,
    loginLockoutMaxSeconds: DEFAULT_RATE_LIMITS.loginLockoutMaxSeconds,
    loginFailureMemorySeconds: DEFAULT_RATE_LIMITS.loginFailureMemorySeconds,
    loginPerAccount: DEFAULT_RATE_LIMITS.loginPerAccount,
    loginPerDevice: DEFAULT_RATE_LIMITS.loginPerDevice,
    preloginPerIp: DEFAULT_RATE_LIMITS.preloginPerIp,
  },
});

const secureApp = useTestApp({ config: { cookieSecure: 'always' } });

const WRONG_KEY = 'A'.repeat(43);
let ipCounter = 0;
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

afterEach(() => {
  vi.useRealTimers();
});

/** A verified account and a browser (at `ip`) that has signed in to it once. */
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The cookie with one character of its MAC (counted from the end) changed to another. */
function alterMacCharacter(cookie: string, fromEnd: number): string {
  const at = cookie.length - 1 - fromEnd;
  const replacement = cookie[at] === 'A' ? 'B' : 'A';
  return cookie.slice(0, at) + replacement + cookie.slice(at + 1);
}

/** The same MAC bytes spelled differently: a 32-byte MAC leaves the last character's 2 low bits spare. */
function respellLastCharacter(cookie: string): string {
  const last = BASE64URL.indexOf(cookie.at(-1)!);
  return cookie.slice(0, -1) + BASE64URL[last ^ 1]!;
}

async function knownBrowser(ip = freshIp()): Promise<{ account: TestAccount; browser: InjectClient }> {
  const account = await newAccount();
  const browser = h.client(ip);
  await signUpAndVerify(h, browser, account);
  expect((await login(browser, account)).statusCode).toBe(200);
  expect(browser.jar.get(DEVICE_COOKIE)).toBeTruthy();
  return { account, browser };
}

/** Strangers at several addresses use up the account's sign-in checks: a new browser gets 429. */
async function lockOutStrangers(account: TestAccount, also: string[] = []) {
  const addresses = [...also, ...Array.from({ length: 12 }, freshIp)];
  for (const ip of addresses)
    for (let i = 0; i < 3; i += 1) await h.client(ip).post(apiPaths.login, { username: account.username, password: WRONG_KEY });
  expect((await login(h.client(freshIp()), account)).statusCode).toBe(429);
}

function deviceCookieLines(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return lines.filter((line) => line.startsWith(`${DEVICE_COOKIE}=`));
}

describe('device cookie', () => {
  it('is set by a successful sign-in only: HttpOnly, SameSite=Strict, sent to sign-in and prelogin alone, for a year', async () => {
    const account = await newAccount();
    const browser = h.client(freshIp());
    await signUpAndVerify(h, browser, account);
    const failed = await browser.post(apiPaths.login, { username: account.username, password: WRONG_KEY });
    expect(deviceCookieLines(failed)).toEqual([]);
    const lines = deviceCookieLines(await login(browser, account));
    const attributesOf = (line: string) =>
      line
        .split(';')
        .slice(1)
        .map((part) => part.trim().toLowerCase());
    expect(lines.map((line) => attributesOf(line).find((attribute) => attribute.startsWith('path=')))).toEqual([
      `path=${apiPaths.prelogin}`,
      `path=${apiPaths.login}`,
      `path=${apiPaths.passkeySignIn}`,
    ]);
    // One value under every path.
    expect(new Set(lines.map((line) => line.split(';')[0])).size).toBe(1);
    for (const line of lines) {
      const attributes = attributesOf(line);
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=strict');
      expect(attributes).toContain(`max-age=${DEVICE_COOKIE_LIFETIME_MS / 1000}`);
      expect(attributes).not.toContain('secure');
    }
  });

  it('is Secure when COOKIE_SECURE says so', async () => {
    const account = await newAccount();
    const browser = secureApp.client(freshIp());
    await signUpAndVerify(secureApp, browser, account);
    const lines = deviceCookieLines(await login(browser, account));
    expect(lines).toHaveLength(DEVICE_COOKIE_PATHS.length);
    for (const line of lines) expect(line).toMatch(/;\s*Secure/i);
  });

  it('keeps prelogin open to the known browser when others at its address used up the address’s allowance', async () => {
    const home = freshIp();
    const { account, browser } = await knownBrowser(home);
    const points = DEFAULT_RATE_LIMITS.preloginPerIp.points;
    for (let i = 0; i < points; i += 1) await h.client(home).post(apiPaths.prelogin, { username: account.username });
    expect((await h.client(home).post(apiPaths.prelogin, { username: account.username })).statusCode).toBe(429);
    expect((await browser.post(apiPaths.prelogin, { username: account.username })).statusCode).toBe(200);
  });

  it('lets the known browser sign in at once while strangers have the account and its own address locked out', async () => {
    const home = freshIp();
    const { account, browser } = await knownBrowser(home);
    vi.useFakeTimers({ toFake: ['Date'] });
    // The attackers include the owner's own address (one NAT), whose pair lockout then applies to it.
    await lockOutStrangers(account, [home]);
    expect((await login(h.client(home), account)).statusCode).toBe(429);
    for (let i = 0; i < 3; i += 1) expect((await login(browser, account)).statusCode).toBe(200);
  });

  it('is renewed (a new nonce) at every successful sign-in', async () => {
    const { account, browser } = await knownBrowser();
    const first = browser.jar.get(DEVICE_COOKIE);
    expect((await login(browser, account)).statusCode).toBe(200);
    expect(browser.jar.get(DEVICE_COOKIE)).not.toBe(first);
  });

  it('is distrusted after its own wrong keys: that browser then meets the strangers’ limits', async () => {
    const { account, browser } = await knownBrowser();
    vi.useFakeTimers({ toFake: ['Date'] });
    const stolen = browser.clone();
    for (let i = 0; i < DEFAULT_RATE_LIMITS.loginPerDevice.points; i += 1)
      expect((await stolen.post(apiPaths.login, { username: account.username, password: WRONG_KEY })).statusCode).toBe(401);
    // Its failures locked no one else: a new browser still signs in.
    expect((await login(h.client(freshIp()), account)).statusCode).toBe(200);
    await lockOutStrangers(account);
    expect((await login(browser, account)).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + DEFAULT_RATE_LIMITS.loginPerDevice.durationSeconds * 1000);
    expect((await login(browser, account)).statusCode).toBe(200);
  });

  it('counts only for the account it was issued for', async () => {
    const { browser } = await knownBrowser();
    const other = await newAccount();
    await signUpAndVerify(h, h.client(freshIp()), other);
    vi.useFakeTimers({ toFake: ['Date'] });
    await lockOutStrangers(other);
    expect((await login(browser, other)).statusCode).toBe(429);
  });

  it('gives nothing when forged, altered or expired', async () => {
    const { account, browser } = await knownBrowser();
    const user = await h.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
    vi.useFakeTimers({ toFake: ['Date'] });
    await lockOutStrangers(account);
    const genuine = browser.jar.get(DEVICE_COOKIE)!;
    const tries = {
      forged: makeDeviceCookieValue(Buffer.from('another server secret, 32 chars+'), user.id, Date.now() + 60_000),
      altered: alterMacCharacter(genuine, 10),
      // The MAC's last character has 2 spare bits: a spelling that decodes to the same bytes.
      nonCanonical: respellLastCharacter(genuine),
      expired: makeDeviceCookieValue(h.config.serverSecret, user.id, h.clock.now() - 1),
    };
    for (const [kind, value] of Object.entries(tries)) {
      const attempt = h.client(freshIp());
      attempt.jar.set(DEVICE_COOKIE, value);
      expect((await login(attempt, account)).statusCode, kind).toBe(429);
    }
    expect((await login(browser, account)).statusCode).toBe(200);
  });
});
