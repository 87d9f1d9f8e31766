import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
import { DEFAULT_RATE_LIMITS } from '../src/config/rate-limit-settings';
import { createRateLimits, SECOND_FACTOR_FAILURES_PER_HOUR } from '../src/security/rate-limits';
import { InjectClient } from './helpers/inject-client';
import { testConfig } from './helpers/test-app';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

const REDIS_URL = process.env.LOCKIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const keyPrefix = `lockit-test-${randomBytes(6).toString('hex')}`;
let database: TestDatabase;
let first: FastifyInstance;
let second: FastifyInstance;

/** Two server processes (two apps) on one database and one Redis, as behind a load balancer. */
beforeAll(async () => {
  database = await createTestDatabase();
  const config = testConfig(database.config, undefined, {
    config: { redisUrl: REDIS_URL },
    rateLimits: { keyPrefix, preloginPerIp: { points: 3, durationSeconds: 60 } },
  });
  first = await buildApp(config, { db: database.db });
  second = await buildApp(config, { db: database.db });
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await database?.drop();
});

describe('rate limits with REDIS_URL', () => {
  it('are shared by every server process', async () => {
    const ip = '10.9.0.1';
    const onFirst = new InjectClient(first, ip);
    const onSecond = new InjectClient(second, ip);
    expect((await onFirst.post(apiPaths.prelogin, { username: 'shared_a' })).statusCode).toBe(200);
    expect((await onSecond.post(apiPaths.prelogin, { username: 'shared_b' })).statusCode).toBe(200);
    expect((await onFirst.post(apiPaths.prelogin, { username: 'shared_c' })).statusCode).toBe(200);
    const limited = await onSecond.post(apiPaths.prelogin, { username: 'shared_d' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('with Redis unreachable', () => {
  it('still serves, limiting in memory', async () => {
    const db = await createTestDatabase();
    const config = testConfig(db.config, undefined, {
      config: { redisUrl: 'redis://127.0.0.1:1' },
      rateLimits: { keyPrefix, preloginPerIp: { points: 1, durationSeconds: 60 } },
    });
    const app = await buildApp(config, { db: db.db });
    try {
      const client = new InjectClient(app, '10.9.0.2');
      expect((await client.post(apiPaths.prelogin, { username: 'offline_a' })).statusCode).toBe(200);
      expect((await client.post(apiPaths.prelogin, { username: 'offline_b' })).statusCode).toBe(429);
    } finally {
      await app.close();
      await db.drop();
    }
  });
});

describe('wrong second factors with REDIS_URL', () => {
  it('count for the account on every server process, so switching processes gains no guesses', async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      const settings = { ...DEFAULT_RATE_LIMITS, keyPrefix };
      const processes = [createRateLimits(settings, redis), createRateLimits(settings, redis)];
      const userId = randomUUID();
      // Each "browser" stays under its own allowance; together, over both processes, they reach the account's.
      for (let i = 0; i < SECOND_FACTOR_FAILURES_PER_HOUR; i += 1) {
        await processes[i % 2]!.beforeSecondFactor(userId, `address\u000010.9.1.${i}`);
      }
      await expect(processes[0]!.beforeSecondFactor(userId, 'address\u000010.9.2.1')).rejects.toMatchObject({ statusCode: 429 });
      await expect(processes[1]!.beforeSecondFactor(userId, 'address\u000010.9.2.2')).rejects.toMatchObject({ statusCode: 429 });
    } finally {
      redis.disconnect();
    }
  });
});
