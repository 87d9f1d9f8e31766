import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { login, signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import { enableTotp, passwordStep, secondFactor, toNextMidStep, totpCodeAt } from './helpers/two-factor';
import { ACCESS_COOKIE } from '../src/auth/session-cookies';

const h = useTestApp();
const STEP = 30_000;

/** A signed-in account with TOTP on, and a fresh browser (another device) to sign in from. */
async function totpAccount() {
  const { account, client } = await signedInUser(h);
  const { secret, recoveryCodes } = await enableTotp(h, client, account);
  return { account, secret, recoveryCodes, browser: h.client() };
}

describe('sign-in with a TOTP code', () => {
  it('asks for the second step after the password, with no session and no wrapped key', async () => {
    const { account, browser } = await totpAccount();
    const response = await login(browser, account);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data.protectedKey).toBeUndefined();
    expect(body.data.secondFactor.methods).toEqual(['totp', 'recovery']);
    expect(Date.parse(body.data.secondFactor.expiresAt) - h.clock.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(browser.jar.has(ACCESS_COOKIE)).toBe(false);
    expect((await browser.get(apiPaths.twoFactor)).statusCode).toBe(401);
  });

  it('completes with the current code: session opened and the spec’s login data', async () => {
    const { account, secret, browser } = await totpAccount();
    const token = await passwordStep(browser, account);
    const done = await secondFactor(browser, { token, method: 'totp', code: totpCodeAt(secret, h.clock.now()) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      message: 'Login successful',
      data: { username: account.username, email: account.email, protectedKey: expect.any(String) },
    });
    expect((await browser.get(apiPaths.twoFactor)).statusCode).toBe(200);
  });

  it('refuses the same code twice, even on a new sign-in', async () => {
    const { account, secret, browser } = await totpAccount();
    const code = totpCodeAt(secret, h.clock.now());
    const first = await secondFactor(browser, { token: await passwordStep(browser, account), method: 'totp', code });
    expect(first.statusCode).toBe(200);
    const other = h.client();
    const replay = await secondFactor(other, { token: await passwordStep(other, account), method: 'totp', code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/already used/);
    expect(other.jar.has(ACCESS_COOKIE)).toBe(false);
  });

  it('refuses the previous step’s code once a newer one was used', async () => {
    const { account, secret, browser } = await totpAccount();
    const now = h.clock.now();
    const newer = await secondFactor(browser, {
      token: await passwordStep(browser, account),
      method: 'totp',
      code: totpCodeAt(secret, now),
    });
    expect(newer.statusCode).toBe(200);
    const other = h.client();
    const older = await secondFactor(other, {
      token: await passwordStep(other, account),
      method: 'totp',
      code: totpCodeAt(secret, now - STEP),
    });
    expect(older.statusCode).toBe(401);
  });

  it('gives one success to two concurrent uses of one code', async () => {
    const { account, secret } = await totpAccount();
    const [a, b] = [h.client(), h.client()];
    const [tokenA, tokenB] = [await passwordStep(a, account), await passwordStep(b, account)];
    const code = totpCodeAt(secret, h.clock.now());
    const answers = await Promise.all([
      secondFactor(a, { token: tokenA, method: 'totp', code }),
      secondFactor(b, { token: tokenB, method: 'totp', code }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('accepts a code one step behind (clock drift) and refuses one two steps behind', async () => {
    const { account, secret, browser } = await totpAccount();
    toNextMidStep(h);
    const twoBehind = await secondFactor(browser, {
      token: await passwordStep(browser, account),
      method: 'totp',
      code: totpCodeAt(secret, h.clock.now() - 2 * STEP),
    });
    expect(twoBehind.statusCode).toBe(401);
    const oneBehind = await secondFactor(browser, {
      token: await passwordStep(browser, account),
      method: 'totp',
      code: totpCodeAt(secret, h.clock.now() - STEP),
    });
    expect(oneBehind.statusCode).toBe(200);
  });

  it('answers a token after 5 minutes 410 with a clear message', async () => {
    const { account, secret, browser } = await totpAccount();
    const token = await passwordStep(browser, account);
    h.clock.advance(5 * 60_000 + 1_000);
    toNextMidStep(h);
    const late = await secondFactor(browser, { token, method: 'totp', code: totpCodeAt(secret, h.clock.now()) });
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toBe('This sign-in has expired. Sign in again.');
  });

  it('kills the pending sign-in after 5 wrong codes, even for the right one', async () => {
    const { account, secret, browser } = await totpAccount();
    const token = await passwordStep(browser, account);
    const right = totpCodeAt(secret, h.clock.now());
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await secondFactor(browser, { token, method: 'totp', code: wrong }));
    expect(answers.slice(0, 4).every((r) => r.statusCode === 401 && /not right/.test(r.json().message))).toBe(true);
    expect(answers[4]!.statusCode).toBe(410);
    expect(answers[4]!.json().message).toBe('Too many wrong codes. Sign in again.');
    const after = await secondFactor(browser, { token, method: 'totp', code: right });
    expect(after.statusCode).toBe(410);
    expect(after.json().message).toBe('This sign-in has expired. Sign in again.');
  });

  it('refuses a made-up token and a malformed code without counting anything', async () => {
    const { browser } = await totpAccount();
    const unknown = await secondFactor(browser, { token: 'x'.repeat(43), method: 'totp', code: '123456' });
    expect(unknown.statusCode).toBe(410);
    expect(unknown.json().message).toBe('This sign-in has expired. Sign in again.');
    const malformed = await secondFactor(browser, { token: 'x'.repeat(43), method: 'totp', code: '12345' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('code must be 6 digits');
  });
});

describe('sign-in with a recovery code', () => {
  it('works once per code and says how many are left', async () => {
    const { account, recoveryCodes, browser } = await totpAccount();
    const code = recoveryCodes[0]!;
    const first = await secondFactor(browser, {
      token: await passwordStep(browser, account),
      method: 'recovery',
      code: code.toLowerCase(),
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.recoveryCodesLeft).toBe(9);
    const other = h.client();
    const again = await secondFactor(other, { token: await passwordStep(other, account), method: 'recovery', code });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toMatch(/recovery code is not right, or was already used/);
  });

  it('stops working once new codes are made, and the new ones work', async () => {
    const { account, recoveryCodes, browser } = await totpAccount();
    const signedIn = h.client();
    const token0 = await passwordStep(signedIn, account);
    expect((await secondFactor(signedIn, { token: token0, method: 'recovery', code: recoveryCodes[1]! })).statusCode).toBe(200);
    const fresh = await signedIn.post(apiPaths.recoveryCodes, { password: account.keys.authKey });
    expect(fresh.statusCode).toBe(200);
    const newCodes = fresh.json().data.recoveryCodes as string[];
    expect(newCodes).toHaveLength(10);
    const old = await secondFactor(browser, {
      token: await passwordStep(browser, account),
      method: 'recovery',
      code: recoveryCodes[2]!,
    });
    expect(old.statusCode).toBe(401);
    const renewed = await secondFactor(browser, {
      token: await passwordStep(browser, account),
      method: 'recovery',
      code: newCodes[0]!,
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().data.recoveryCodesLeft).toBe(9);
  });
});

describe('an account without a second factor', () => {
  it('signs in in one step with the spec’s answer, never a second-factor prompt', async () => {
    const { account } = await signedInUser(h);
    const browser = h.client();
    const response = await login(browser, account);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.secondFactor).toBeUndefined();
    expect(response.json()).toMatchObject({
      message: 'Login successful',
      data: { username: account.username, email: account.email, protectedKey: expect.any(String) },
    });
    expect(browser.jar.has(ACCESS_COOKIE)).toBe(true);
  });
});
