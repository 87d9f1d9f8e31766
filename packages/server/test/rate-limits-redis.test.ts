import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
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
