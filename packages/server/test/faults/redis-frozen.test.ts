import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { Redis } from 'ioredis';
import type { AppConfig } from '../../src/config/app-config';
import { createBody, login, newAccount, signedInUser, type TestAccount } from '../helpers/accounts';
import { recordFigures } from '../helpers/figures';
import { useTestApp } from '../helpers/test-app';
import { startOwnRedis, type OwnRedis } from './own-redis';

/**
 * Redis frozen (SIGSTOP: it accepts connections and never answers) and killed, on a Redis of
 * the test's own. Rate limits must time out and fall back to memory: sign-in, prelogin and
 * sign-up answer within a second, and the limits still apply.
 */
const ANSWER_LIMIT_MS = 1_000;
const PRELOGIN_POINTS = 3;

let redis: OwnRedis;
let watcher: Redis;
const options = {
  config: {} as Partial<AppConfig>,
  rateLimits: { preloginPerIp: { points: PRELOGIN_POINTS, durationSeconds: 60 } },
};
beforeAll(async () => {
  redis = await startOwnRedis();
  options.config.redisUrl = redis.url;
  watcher = new Redis(redis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  watcher.on('error', () => {});
  await watcher.connect();
});
const h = useTestApp(options);
afterAll(async () => {
  watcher?.disconnect();
  redis?.thaw();
  await redis?.kill();
});

let signedIn: { account: TestAccount };
const worst: Record<string, number> = {};
let addressCount = 0;
const freshAddress = () => `10.77.${Math.floor(addressCount / 250)}.${(addressCount++ % 250) + 1}`;

async function timed(label: string, call: () => Promise<{ statusCode: number }>, expected: number): Promise<number> {
  const start = performance.now();
  const answer = await call();
  const ms = performance.now() - start;
  expect(answer.statusCode, label).toBe(expected);
  worst[label] = Math.max(worst[label] ?? 0, Math.round(ms));
  return ms;
}

/** Sign-in, prelogin and sign-up once each, timed, from fresh addresses. */
async function signInPreloginSignUp(phase: string, fresh: TestAccount): Promise<void> {
  const client = h.client(freshAddress());
  await timed(`${phase}: prelogin`, () => client.post(apiPaths.prelogin, { username: signedIn.account.username }), 200);
  await timed(`${phase}: sign-in`, () => login(h.client(freshAddress()), signedIn.account), 200);
  await timed(`${phase}: sign-up`, () => h.client(freshAddress()).post(apiPaths.createUser, createBody(fresh)), 201);
}

/** The prelogin limit still holds: PRELOGIN_POINTS answers, then 429. */
async function expectPreloginLimited(): Promise<void> {
  const client = h.client(freshAddress());
  for (let n = 0; n < PRELOGIN_POINTS; n += 1) {
    expect((await client.post(apiPaths.prelogin, { username: `limited_${n}` })).statusCode).toBe(200);
  }
  const refused = await client.post(apiPaths.prelogin, { username: 'limited_last' });
  expect(refused.statusCode).toBe(429);
  expect(refused.headers['retry-after']).toBeDefined();
}

async function storedKeys(): Promise<number> {
  return (await watcher.keys(`${h.config.rateLimits.keyPrefix}:*`)).length;
}

describe('a frozen or killed Redis', () => {
  let accounts: TestAccount[];
  beforeAll(async () => {
    signedIn = await signedInUser(h);
    accounts = await Promise.all([newAccount(), newAccount(), newAccount(), newAccount()]);
  });

  it('while Redis answers, the limits live in Redis', async () => {
    await signInPreloginSignUp('healthy', accounts[0]!);
    expect(await storedKeys()).toBeGreaterThan(0);
  });

  it('frozen: sign-in, prelogin and sign-up answer within a second, and limits still apply', async () => {
    redis.freeze();
    for (const account of [accounts[1]!, accounts[2]!]) await signInPreloginSignUp('frozen', account);
    await expectPreloginLimited();
    for (const [label, ms] of Object.entries(worst))
      if (label.startsWith('frozen')) expect(ms, label).toBeLessThan(ANSWER_LIMIT_MS);
  });

  it('thawed: answers stay quick and the limits go back to Redis', async () => {
    redis.thaw();
    const before = await storedKeys();
    await signInPreloginSignUp('thawed', accounts[3]!);
    // ioredis reconnects by itself; give it a moment, then new keys reach Redis again.
    const deadline = Date.now() + 5_000;
    let after = before;
    while (after <= before && Date.now() < deadline) {
      await h.client(freshAddress()).post(apiPaths.prelogin, { username: 'back_again' });
      after = await storedKeys();
      if (after <= before) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after).toBeGreaterThan(before);
  });

  it('killed: answers stay quick and limits still apply', async () => {
    await redis.kill();
    await signInPreloginSignUp('killed', await newAccount());
    await expectPreloginLimited();
    for (const [label, ms] of Object.entries(worst))
      if (!label.startsWith('healthy')) expect(ms, label).toBeLessThan(ANSWER_LIMIT_MS);
    recordFigures('redis frozen and killed: worst answer ms', worst);
  });
});
