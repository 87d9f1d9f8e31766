import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { createBody, newAccount } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const window = (points: number) => ({ points, durationSeconds: 60 });
const h = useTestApp({
  rateLimits: {
    loginPerIp: window(6),
    preloginPerIp: window(3),
    createPerIp: window(2),
    createPerAccount: window(1),
    sendCodePerIp: window(3),
    sendCodePerAccount: window(2),
    verifyCodePerIp: window(3),
    verifyCodePerAccount: window(2),
  },
  // No resend cool-down: it answers a quick second send-code of any pair first (enumeration.test.ts).
  timing: { codeResendCooldownMs: 0 },
});

let ipCounter = 0;
/** A fresh client address per use, so per-IP limits of one test do not touch another. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const wrongKey = 'A'.repeat(43);

function expectLimited(response: { statusCode: number; headers: Record<string, unknown>; json: () => { message: string } }) {
  expect(response.statusCode).toBe(429);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.json().message).toMatch(/^Too many attempts\. Try again in \d+ (seconds?|minutes?)\.$/);
}

describe('per-IP limits', () => {
  it('sign-in: counts every attempt from one address; other addresses are unaffected', async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i += 1) {
      expect((await h.client(ip).post(apiPaths.login, { username: `someone_${i}`, password: wrongKey })).statusCode).toBe(401);
    }
    expectLimited(await h.client(ip).post(apiPaths.login, { username: 'someone_else', password: wrongKey }));
    expect((await h.client(freshIp()).post(apiPaths.login, { username: 'someone_else', password: wrongKey })).statusCode).toBe(
      401,
    );
  });

  it('prelogin: per IP only; one address flooding a name never refuses that name elsewhere', async () => {
    const ip = freshIp();
    for (const name of ['popular', 'POPULAR', 'popular'])
      expect((await h.client(ip).post(apiPaths.prelogin, { username: name })).statusCode).toBe(200);
    expectLimited(await h.client(ip).post(apiPaths.prelogin, { username: 'popular' }));

    // Before decision 0047 a per-account limit (here it would have been 2) refused these.
    for (let i = 0; i < 5; i += 1)
      expect((await h.client(freshIp()).post(apiPaths.prelogin, { username: 'popular' })).statusCode).toBe(200);
  });

  it('create: per IP and per email', async () => {
    const ip = freshIp();
    for (let i = 0; i < 2; i += 1) {
      expect((await h.client(ip).post(apiPaths.createUser, createBody(await newAccount()))).statusCode).toBe(201);
    }
    expectLimited(await h.client(ip).post(apiPaths.createUser, createBody(await newAccount())));

    const first = await newAccount({ email: 'one.email@example.test' });
    expect((await h.client(freshIp()).post(apiPaths.createUser, createBody(first))).statusCode).toBe(201);
    const second = await newAccount({ email: 'One.Email@example.test' });
    expectLimited(await h.client(freshIp()).post(apiPaths.createUser, createBody(second)));
  });

  it('send-code: per IP and per account', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await h.client(ip).post(apiPaths.sendCode, { email: `p${i}@example.test`, username: `pending_${i}` })).statusCode,
      ).toBe(200);
    }
    expectLimited(await h.client(ip).post(apiPaths.sendCode, { email: 'p9@example.test', username: 'pending_9' }));

    const body = { email: 'same@example.test', username: 'same_pending' };
    for (let i = 0; i < 2; i += 1) expect((await h.client(freshIp()).post(apiPaths.sendCode, body)).statusCode).toBe(200);
    expectLimited(await h.client(freshIp()).post(apiPaths.sendCode, body));
  });

  it('verify-code: per IP and per account', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i += 1) {
      const response = await h
        .client(ip)
        .post(apiPaths.verifyCode, { email: `v${i}@example.test`, username: `verify_${i}`, code: 'ABCDEF' });
      expect(response.statusCode).toBe(400);
    }
    expectLimited(
      await h.client(ip).post(apiPaths.verifyCode, { email: 'v9@example.test', username: 'verify_9', code: 'ABCDEF' }),
    );

    const body = { email: 'guess@example.test', username: 'guess_me', code: 'ABCDEF' };
    for (let i = 0; i < 2; i += 1) expect((await h.client(freshIp()).post(apiPaths.verifyCode, body)).statusCode).toBe(400);
    expectLimited(await h.client(freshIp()).post(apiPaths.verifyCode, body));
  });
});
