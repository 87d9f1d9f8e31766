import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { CODE_ALPHABET } from '../src/identity/verification-code';
import { DEFAULT_RATE_LIMITS } from '../src/config/rate-limit-settings';
import { createBody, newAccount, requestCode, type TestAccount } from './helpers/accounts';
import { useTestApp, type TestHarness } from './helpers/test-app';

/** No rate limits in the way: what the per-code budget alone allows. */
const unlimited = useTestApp();
/** The product's send-code and verify-code limits, exactly as shipped. */
const shipped = useTestApp({
  rateLimits: {
    sendCodePerIp: DEFAULT_RATE_LIMITS.sendCodePerIp,
    sendCodePerAccount: DEFAULT_RATE_LIMITS.sendCodePerAccount,
    verifyCodePerIp: DEFAULT_RATE_LIMITS.verifyCodePerIp,
    verifyCodePerAccount: DEFAULT_RATE_LIMITS.verifyCodePerAccount,
  },
});

const INVALID = 'That code is not valid. Check it or request a new one.';
const TOO_MANY = 'Too many wrong codes. Request a new code.';
const MINUTE = 60_000;
let ipCounter = 0;
const freshIp = () => `10.${Math.floor(++ipCounter / 65_000)}.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}`;

async function pendingAccount(h: TestHarness): Promise<TestAccount> {
  const account = await newAccount();
  expect((await h.client(freshIp()).post(apiPaths.createUser, createBody(account))).statusCode).toBe(201);
  return account;
}

/** `count` distinct wrong codes: every 6-letter code but the right one is wrong. */
function wrongCodes(right: string, count: number): string[] {
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n += 1) {
    let code = '';
    for (let rest = n, i = 0; i < 6; i += 1, rest = Math.floor(rest / CODE_ALPHABET.length))
      code += CODE_ALPHABET[rest % CODE_ALPHABET.length];
    if (code !== right) codes.push(code);
  }
  return codes;
}

/** Sends the codes 100 at a time in parallel, each batch from its own addresses. */
async function guess(h: TestHarness, account: TestAccount, codes: string[]): Promise<LightMyRequestResponse[]> {
  const answers: LightMyRequestResponse[] = [];
  for (let start = 0; start < codes.length; start += 100) {
    const batch = codes.slice(start, start + 100);
    answers.push(
      ...(await Promise.all(
        batch.map((code) =>
          h.client(freshIp()).post(apiPaths.verifyCode, { email: account.email, username: account.username, code }),
        ),
      )),
    );
  }
  return answers;
}

function tally(answers: LightMyRequestResponse[]) {
  const byAnswer = new Map<string, number>();
  for (const answer of answers) {
    const key = `${answer.statusCode} ${answer.json().message as string}`;
    byAnswer.set(key, (byAnswer.get(key) ?? 0) + 1);
  }
  return byAnswer;
}

async function attemptsStored(h: TestHarness, account: TestAccount): Promise<number | undefined> {
  const row = await h.db
    .selectFrom('verification_codes')
    .innerJoin('users', 'users.id', 'verification_codes.user_id')
    .select('verification_codes.attempts')
    .where('users.username', '=', account.username)
    .executeTakeFirst();
  return row?.attempts;
}

describe('1,000 wrong codes against one pending account', () => {
  it('check 5 per issued code, in parallel too; the code then dies, right or wrong', async () => {
    const h = unlimited;
    const account = await pendingAccount(h);
    for (let round = 1; round <= 2; round += 1) {
      const code = await requestCode(h, h.client(freshIp()), account);
      const answers = await guess(h, account, wrongCodes(code, 1000));
      expect(tally(answers)).toEqual(
        new Map([
          [`400 ${INVALID}`, 5],
          [`400 ${TOO_MANY}`, 995],
        ]),
      );
      expect(await attemptsStored(h, account)).toBe(5);
      const right = await h
        .client(freshIp())
        .post(apiPaths.verifyCode, { email: account.email, username: account.username, code });
      expect(right.json()).toEqual({ message: TOO_MANY });
      h.clock.advance(MINUTE); // the resend cool-down
    }
    const code = await requestCode(h, h.client(freshIp()), account);
    const verified = await h
      .client(freshIp())
      .post(apiPaths.verifyCode, { email: account.email, username: account.username, code });
    expect(verified.json()).toEqual({ message: 'Email verified' });
  });
});

describe('with the shipped limits', () => {
  it('1,000 wrong codes from 1,000 addresses: 15 reach the code, 5 are checked, the rest wait', async () => {
    const h = shipped;
    const account = await pendingAccount(h);
    const code = await requestCode(h, h.client(freshIp()), account);
    const answers = await guess(h, account, wrongCodes(code, 1000));
    const counts = tally(answers);
    expect(counts.get(`400 ${INVALID}`)).toBe(5);
    expect(counts.get(`400 ${TOO_MANY}`)).toBe(DEFAULT_RATE_LIMITS.verifyCodePerAccount.points - 5);
    const limited = answers.filter((answer) => answer.statusCode === 429);
    expect(limited).toHaveLength(1000 - DEFAULT_RATE_LIMITS.verifyCodePerAccount.points);
    for (const answer of limited) {
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(answer.json().message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
    }
    expect(await attemptsStored(h, account)).toBe(5);
  });

  it('new codes: one a minute, five an hour per account, so at most 25 checked guesses an hour', async () => {
    const h = shipped;
    const account = await pendingAccount(h);
    const send = () => h.client(freshIp()).post(apiPaths.sendCode, { email: account.email, username: account.username });
    for (let sent = 1; sent <= DEFAULT_RATE_LIMITS.sendCodePerAccount.points; sent += 1) {
      expect((await send()).statusCode, `code ${sent}`).toBe(200);
      h.clock.advance(MINUTE);
    }
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
  });

  it('a second code within the minute waits for the cool-down', async () => {
    const h = shipped;
    const account = await pendingAccount(h);
    const send = () => h.client(freshIp()).post(apiPaths.sendCode, { email: account.email, username: account.username });
    expect((await send()).statusCode).toBe(200);
    const cooling = await send();
    expect(cooling.statusCode).toBe(429);
    expect(cooling.json().message).toMatch(/^A code was sent moments ago\. Try again in (\d+ seconds?|1 minute)\.$/);
    expect(Number(cooling.headers['retry-after'])).toBeLessThanOrEqual(60);
  });
});
