import { randomInt } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { DEFAULT_RATE_LIMITS } from '../src/config/rate-limit-settings';
import { ApiClient, createVerifiedAccount, startSmtpSink, type SmtpSink } from '@lockit/test-support';
import { encryptEntry } from './helpers/entries';
import { createProcessDatabase, startServerProcess, type ProcessDatabase, type ServerProcess } from './helpers/server-process';

/**
 * Two server processes on different ports behind an imagined load balancer, sharing one
 * PostgreSQL database, one Redis and one SERVER_SECRET (docs/configuration.md, "Several
 * processes"). Several processes need PostgreSQL, so vitest.config.ts runs this file in the postgres
 * project only.
 */
const REDIS_URL = process.env.LOCKIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The processes use the shipped key prefix: a client address of this run's own keeps other runs' counts away. */
const runIp = () => `100.${64 + randomInt(64)}.${randomInt(256)}.${randomInt(1, 255)}`;

let database: ProcessDatabase;
let sink: SmtpSink;
let first: ServerProcess;
let second: ServerProcess;

describe('two server processes on one database and one Redis', () => {
  beforeAll(async () => {
    sink = await startSmtpSink();
    database = await createProcessDatabase('postgres');
    const env = {
      ...database.env,
      SMTP_URL: sink.url,
      SERVER_SECRET: 'several-servers-test-secret-0123456789abcdef',
      REDIS_URL,
      TRUST_PROXY: '1',
      WEB_DIST_DIR: path.join(database.dataDir, 'no-web'),
    };
    // Started together: both run the migrations at once, as a rolling deploy would.
    [first, second] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await database?.drop();
    await sink?.close();
  });

  it('a session made on one works on the other, writes included', async () => {
    const { account, client: onFirst } = await createVerifiedAccount(first.url, sink.inbox, { forwardedFor: runIp() });
    const onSecond = onFirst.copyTo(second.url);
    expect((await onSecond.get(apiPaths.profile)).body.data).toMatchObject({ username: account.username });
    const entry = await encryptEntry(account, { serviceName: 'Shared', username: 'me', password: 'p' });
    expect((await onSecond.post(apiPaths.addEntry, entry)).status).toBe(201);
    const listed = await onFirst.get(apiPaths.listEntries);
    expect((listed.body.data as Array<{ id: string }>).map((row) => row.id)).toEqual([entry.id]);
  });

  it('a refresh on one rotates the session for both', async () => {
    const { client: onFirst } = await createVerifiedAccount(first.url, sink.inbox, { forwardedFor: runIp() });
    const stale = onFirst.copyTo(second.url);
    expect((await onFirst.copyTo(second.url).post(apiPaths.refreshToken)).status).toBe(200);
    expect((await stale.get(apiPaths.profile)).status).toBe(401);
  });

  it('a logout on one ends the session on both', async () => {
    const { client: onFirst } = await createVerifiedAccount(first.url, sink.inbox, { forwardedFor: runIp() });
    const copy = onFirst.copyTo(first.url);
    expect((await onFirst.copyTo(second.url).post(apiPaths.logout)).status).toBe(200);
    expect((await copy.get(apiPaths.profile)).status).toBe(401);
    expect((await copy.post(apiPaths.refreshToken)).status).toBe(401);
    expect((await copy.copyTo(second.url).get(apiPaths.profile)).status).toBe(401);
  });

  it('share the sign-in lockout: failures on either count for both', async () => {
    const ip = runIp();
    const { account } = await createVerifiedAccount(first.url, sink.inbox, { forwardedFor: ip });
    const servers = [first.url, second.url];
    const wrong = (n: number) =>
      new ApiClient(servers[n % 2]!, ip).post(apiPaths.login, { username: account.username, password: 'A'.repeat(43) });
    for (let n = 0; n <= DEFAULT_RATE_LIMITS.loginFreeFailures; n += 1)
      expect((await wrong(n)).status, `failure ${n + 1}`).toBe(401);
    for (const url of servers) {
      const locked = await new ApiClient(url, ip).post(apiPaths.login, {
        username: account.username,
        password: account.keys.authKey,
      });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const elsewhere = await new ApiClient(second.url, runIp()).post(apiPaths.login, {
      username: account.username,
      password: account.keys.authKey,
    });
    expect(elsewhere.status).toBe(200);
  });

  it('share the per-IP limits', async () => {
    const ip = runIp();
    const servers = [first.url, second.url];
    const points = DEFAULT_RATE_LIMITS.preloginPerIp.points;
    for (let n = 0; n < points; n += 1) {
      expect((await new ApiClient(servers[n % 2]!, ip).post(apiPaths.prelogin, { username: `name_${n}` })).status).toBe(200);
    }
    for (const url of servers)
      expect((await new ApiClient(url, ip).post(apiPaths.prelogin, { username: 'one_more' })).status).toBe(429);
  });
});
