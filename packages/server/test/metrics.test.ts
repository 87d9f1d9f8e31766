import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { freePort } from '@lockit/test-support';
import { buildApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/config/load-config';
import { createBody, login, newAccount, signUpAndVerify } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { InjectClient } from './helpers/inject-client';
import { parseExposition, samplesOf, valueOf, type Exposition } from './helpers/prometheus-text';
import { testConfig, useTestApp } from './helpers/test-app';
import { createTestDatabase, TEST_DB_KIND } from './helpers/test-database';

const TOKEN = 'a-metrics-token-of-some-length';
const SIGN_IN_IP = '10.7.0.1';
const PRELOGIN_IP = '10.7.0.2';

const h = useTestApp({
  rateLimits: {
    loginPerIp: { points: 3, durationSeconds: 60 },
    preloginPerIp: { points: 2, durationSeconds: 60 },
  },
});
const guarded = useTestApp({ config: { metrics: { enabled: true, token: TOKEN } } });
const disabled = useTestApp({ config: { metrics: { enabled: false, token: undefined } } });

/** Scrapes /metrics as Prometheus does (no cookie, no app header) and parses the text served. */
async function scrape(app: FastifyInstance, headers: Record<string, string> = {}): Promise<Exposition> {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(response.body);
}

/** Scrapes until `ready` holds: mail is sent after the answer, so its counters move a little later. */
async function scrapeUntil(app: FastifyInstance, ready: (metrics: Exposition) => boolean): Promise<Exposition> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const metrics = await scrape(app);
    if (ready(metrics) || Date.now() > deadline) return metrics;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /metrics', () => {
  it('counts requests by route pattern, sign-ins, rate-limit refusals and mails, with no user data in any label', async () => {
    const account = await newAccount();
    const client = h.client(SIGN_IN_IP);
    await signUpAndVerify(h, client, account);
    const wrongKey = (await newAccount({ password: 'someone else entirely' })).keys.authKey;
    expect((await client.post(apiPaths.login, { username: account.username, password: wrongKey })).statusCode).toBe(401);
    expect((await login(client, account)).statusCode).toBe(200);
    const entry = await encryptEntry(account, { serviceName: 'Mail', username: 'me', password: 'secret' });
    expect((await client.post(apiPaths.addEntry, entry)).statusCode).toBe(201);
    expect((await client.get(apiPaths.entryHistory(entry.id))).statusCode).toBe(200);
    expect((await client.get(`/api/no-such-path/${account.username}`)).statusCode).toBe(404);
    // New browsers at that address: a known one (device cookie) is not counted per address.
    expect((await login(h.client(SIGN_IN_IP), account)).statusCode).toBe(200);
    expect((await login(h.client(SIGN_IN_IP), account)).statusCode).toBe(429);
    const preloginClient = h.client(PRELOGIN_IP);
    for (const expected of [200, 200, 429]) {
      expect((await preloginClient.post(apiPaths.prelogin, { username: account.username })).statusCode).toBe(expected);
    }

    const metrics = await scrapeUntil(
      h.app,
      (m) => valueOf(m, 'lockit_mails_sent_total', { kind: 'verification_code' }) === h.sink.mails.length,
    );

    expect(metrics.types.get('lockit_http_requests_total')).toBe('counter');
    const requests = (labels: Record<string, string>) => valueOf(metrics, 'lockit_http_requests_total', labels);
    expect(requests({ method: 'POST', route: apiPaths.login, status: '200' })).toBe(2);
    expect(requests({ method: 'POST', route: apiPaths.login, status: '401' })).toBe(1);
    expect(requests({ method: 'POST', route: apiPaths.login, status: '429' })).toBe(1);
    expect(requests({ method: 'POST', route: apiPaths.addEntry, status: '201' })).toBe(1);
    expect(requests({ method: 'GET', route: `${apiPaths.entryHistory('')}:id`, status: '200' })).toBe(1);
    expect(requests({ method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(requests({ method: 'POST', route: apiPaths.prelogin, status: '429' })).toBe(1);

    expect(metrics.types.get('lockit_http_request_duration_seconds')).toBe('histogram');
    const loginTimes = { method: 'POST', route: apiPaths.login };
    expect(valueOf(metrics, 'lockit_http_request_duration_seconds_count', loginTimes)).toBe(4);
    expect(valueOf(metrics, 'lockit_http_request_duration_seconds_bucket', { ...loginTimes, le: '+Inf' })).toBe(4);
    expect(valueOf(metrics, 'lockit_http_request_duration_seconds_sum', loginTimes)).toBeGreaterThan(0);

    expect(valueOf(metrics, 'lockit_sign_ins_total')).toBe(2);
    const failures = (reason: string) => valueOf(metrics, 'lockit_sign_in_failures_total', { reason });
    expect([failures('invalid_credentials'), failures('rate_limited'), failures('unverified'), failures('disabled')]).toEqual([
      1, 1, 0, 0,
    ]);

    expect(valueOf(metrics, 'lockit_rate_limit_refusals_total', { limiter: 'login-ip' })).toBe(1);
    expect(valueOf(metrics, 'lockit_rate_limit_refusals_total', { limiter: 'prelogin-ip' })).toBe(1);

    expect(h.sink.mailsTo(account.email)).toHaveLength(1);
    expect(valueOf(metrics, 'lockit_mails_sent_total', { kind: 'verification_code' })).toBe(h.sink.mails.length);
    expect(valueOf(metrics, 'lockit_mails_failed_total', { kind: 'verification_code' })).toBe(0);

    // The process's series: event-loop lag among them.
    expect(metrics.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(metrics.types.get('nodejs_eventloop_lag_p99_seconds')).toBe('gauge');
    expect(metrics.types.get('process_cpu_seconds_total')).toBe('counter');
    expect(metrics.types.get('process_resident_memory_bytes')).toBe('gauge');
    // The Argon2 queue of the process: nothing runs or waits once the sign-ins are answered.
    expect(valueOf(metrics, 'lockit_hashing_running')).toBe(0);
    expect(valueOf(metrics, 'lockit_hashing_waiting')).toBe(0);
    expect(metrics.types.get('lockit_hashing_refused_total')).toBe('counter');

    if (TEST_DB_KIND === 'postgres') {
      expect(valueOf(metrics, 'lockit_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(metrics, 'lockit_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(valueOf(metrics, 'lockit_db_pool_waiting_requests')).toBe(0);
      expect(valueOf(metrics, 'lockit_db_pool_max_connections')).toBe(10);
    } else {
      expect(samplesOf(metrics, 'lockit_db_pool_connections')).toEqual([]);
    }

    const labelValues = metrics.samples.flatMap((sample) => Object.values(sample.labels)).map((value) => value.toLowerCase());
    expect(labelValues.length).toBeGreaterThan(50);
    for (const secret of [account.username, account.email, entry.id, SIGN_IN_IP, PRELOGIN_IP]) {
      expect(labelValues.filter((value) => value.includes(secret.toLowerCase()))).toEqual([]);
    }

    // Each app has its own registry: another app in this process saw none of these sign-ins.
    const other = await scrape(guarded.app, { authorization: `Bearer ${TOKEN}` });
    expect(valueOf(other, 'lockit_sign_ins_total')).toBe(0);
  });

  it('counts a mail the mail server refused as failed', async () => {
    const database = await createTestDatabase();
    const closedPort = await freePort();
    const app = await buildApp(testConfig(database.config, `smtp://127.0.0.1:${closedPort}`), { db: database.db });
    try {
      const account = await newAccount();
      const client = new InjectClient(app);
      expect((await client.post(apiPaths.createUser, createBody(account))).statusCode).toBe(201);
      await client.post(apiPaths.sendCode, { email: account.email, username: account.username });
      const failed = (m: Exposition) => valueOf(m, 'lockit_mails_failed_total', { kind: 'verification_code' });
      const metrics = await scrapeUntil(app, (m) => failed(m) === 1);
      expect(failed(metrics)).toBe(1);
      expect(valueOf(metrics, 'lockit_mails_sent_total', { kind: 'verification_code' })).toBe(0);
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it('with METRICS_TOKEN: 401 without the token or with a wrong one, 200 with it', async () => {
    const bare = await guarded.app.inject({ method: 'GET', url: '/metrics' });
    expect(bare.statusCode).toBe(401);
    expect(bare.json()).toEqual({ message: 'Send the metrics token as Authorization: Bearer <token>.' });
    expect(bare.headers['www-authenticate']).toBe('Bearer realm="lockit-metrics"');
    expect(bare.headers['x-content-type-options']).toBe('nosniff');
    expect(bare.headers['cache-control']).toBe('no-store');
    for (const authorization of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`,
      TOKEN,
      'Bearer ',
      `Bearer ${TOKEN} ${TOKEN}`,
    ]) {
      const response = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.body).not.toContain('lockit_');
    }
    const metrics = await scrape(guarded.app, { authorization: `Bearer ${TOKEN}` });
    expect(metrics.types.get('lockit_http_requests_total')).toBe('counter');
    expect(
      (await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `bearer ${TOKEN}` } })).statusCode,
    ).toBe(200);
  });

  it('without METRICS_TOKEN needs no session, cookie or app header, and carries the security headers', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('with METRICS_ENABLED=false answers 404 and shows no series', async () => {
    const response = await disabled.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('METRICS_ENABLED and METRICS_TOKEN', () => {
  // A SERVER_SECRET, so that loading the config writes no file.
  const base = { SERVER_SECRET: 's'.repeat(32) };
  const metricsConfig = async (env: Record<string, string>) => (await loadConfig({ ...base, ...env })).metrics;

  it('default to metrics on, with no token; empty values are the defaults', async () => {
    expect(await metricsConfig({})).toEqual({ enabled: true, token: undefined });
    expect(await metricsConfig({ METRICS_ENABLED: '', METRICS_TOKEN: ' ' })).toEqual({ enabled: true, token: undefined });
  });

  it('read false and a token', async () => {
    expect(await metricsConfig({ METRICS_ENABLED: 'false', METRICS_TOKEN: TOKEN })).toEqual({ enabled: false, token: TOKEN });
  });

  it('refuse a value that is not true or false, and a token shorter than 16 characters, naming the variable', async () => {
    for (const [env, expected] of [
      [{ METRICS_ENABLED: 'maybe' }, 'METRICS_ENABLED must be true or false.'],
      [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters long.'],
    ] as const) {
      const error = await loadConfig({ ...base, ...env }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain(expected);
      expect((error as ConfigError).message).not.toContain('short');
    }
  });
});
