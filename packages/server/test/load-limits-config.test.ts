import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load-config';
import { defaultHashingConcurrency } from '../src/auth/hashing-queue';
import { serverTimeouts } from '../src/http/connection-limits';

const dir = mkdtempSync(path.join(tmpdir(), 'lockit-load-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = 's'.repeat(40);

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, SERVER_SECRET: SECRET, ...env });

describe('load limits in the configuration', () => {
  it('defaults: 30 s to send a request, 64 connections per address, 64 Argon2 jobs waiting, concurrency from the pool and the cores', async () => {
    const { loadLimits } = await load({});
    expect(loadLimits).toEqual({
      requestTimeoutMs: 30_000,
      maxConnectionsPerIp: 64,
      hashingConcurrency: defaultHashingConcurrency(),
      hashingQueueMax: 64,
    });
  });

  it('Argon2 concurrency by default keeps one libuv thread free and runs no more jobs than cores', () => {
    const cores = availableParallelism();
    expect(defaultHashingConcurrency({})).toBe(Math.max(1, Math.min(3, cores)));
    expect(defaultHashingConcurrency({ UV_THREADPOOL_SIZE: '2' })).toBe(1);
    expect(defaultHashingConcurrency({ UV_THREADPOOL_SIZE: '1' })).toBe(1);
    expect(defaultHashingConcurrency({ UV_THREADPOOL_SIZE: '64' })).toBe(Math.min(63, cores));
    expect(defaultHashingConcurrency({ UV_THREADPOOL_SIZE: 'lots' })).toBe(Math.max(1, Math.min(3, cores)));
  });

  it('reads every variable; 0 turns the connection cap off and HASHING_CONCURRENCY back to automatic', async () => {
    const { loadLimits } = await load({
      REQUEST_TIMEOUT_SECONDS: '5',
      MAX_CONNECTIONS_PER_IP: '0',
      HASHING_CONCURRENCY: '3',
      HASHING_QUEUE_MAX: '10',
    });
    expect(loadLimits).toEqual({ requestTimeoutMs: 5_000, maxConnectionsPerIp: 0, hashingConcurrency: 3, hashingQueueMax: 10 });
    expect((await load({ HASHING_CONCURRENCY: '0' })).loadLimits.hashingConcurrency).toBe(defaultHashingConcurrency());
  });

  it.each([
    [{ REQUEST_TIMEOUT_SECONDS: '0' }, 'REQUEST_TIMEOUT_SECONDS must be between 1 and 3600'],
    [{ REQUEST_TIMEOUT_SECONDS: 'soon' }, 'REQUEST_TIMEOUT_SECONDS must be a number'],
    [{ MAX_CONNECTIONS_PER_IP: '-1' }, 'MAX_CONNECTIONS_PER_IP must be between 0 and 100000'],
    [{ HASHING_CONCURRENCY: '1.5' }, 'HASHING_CONCURRENCY must be a whole number'],
    [{ HASHING_QUEUE_MAX: '0' }, 'HASHING_QUEUE_MAX must be between 1 and 100000'],
  ])('refuses %j with a message naming the variable', async (env, expected) => {
    const error = await load(env).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(expected);
  });

  it('Node checks for late requests often enough that a request is cut within a quarter of its limit past it', () => {
    expect(
      serverTimeouts({ requestTimeoutMs: 30_000, maxConnectionsPerIp: 64, hashingConcurrency: 1, hashingQueueMax: 1 }),
    ).toMatchObject({
      requestTimeout: 30_000,
      http: { requestTimeout: 30_000, headersTimeout: 30_000, connectionsCheckingInterval: 1_000 },
    });
    expect(
      serverTimeouts({ requestTimeoutMs: 2_000, maxConnectionsPerIp: 0, hashingConcurrency: 1, hashingQueueMax: 1 }).http
        .connectionsCheckingInterval,
    ).toBe(500);
  });
});
