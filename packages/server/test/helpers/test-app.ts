import { DEFAULT_SITE_SETTINGS } from '@lockit/contract/site-settings';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app';
import { DEFAULT_TIMING, type AppConfig, type TimingSettings } from '../../src/config/app-config';
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from '../../src/config/rate-limit-settings';
import {
  DEFAULT_HISTORY_LIMIT,
  DEFAULT_TRASH_RETENTION_DAYS,
  DEFAULT_UNVERIFIED_ACCOUNT_HOURS,
  DEFAULT_REMEMBER_BROWSER_DAYS,
  DEFAULT_VAULT_MAX_ITEMS,
  DEFAULT_VAULT_MAX_MEGABYTES,
} from '../../src/config/config-schema';
import type { Db } from '../../src/db/schema';
import { DEFAULT_MAX_CONNECTIONS_PER_IP, DEFAULT_REQUEST_TIMEOUT_SECONDS } from '../../src/config/load-limits';
import { defaultHashingConcurrency } from '../../src/auth/hashing-queue';
import { InjectClient } from './inject-client';
import { startSmtpSink, type SmtpSink } from '@lockit/test-support';
import { createTestClock, type TestClock } from './test-clock';
import { createTestDatabase, type TestDatabase } from './test-database';

const GENEROUS = { points: 1_000_000, durationSeconds: 60 };

/** Limits no ordinary test trips; the rate-limit tests set their own small ones. */
export const GENEROUS_RATE_LIMITS: RateLimitSettings = {
  ...DEFAULT_RATE_LIMITS,
  keyPrefix: `lockit-test-${process.pid}-${Math.random().toString(36).slice(2)}`,
  loginPerIp: GENEROUS,
  loginFreeFailures: 1_000_000,
  loginPerAccount: GENEROUS,
  loginPerDevice: GENEROUS,
  passwordCheckPerAccount: GENEROUS,
  preloginPerIp: GENEROUS,
  createPerIp: GENEROUS,
  createPerAccount: GENEROUS,
  sendCodePerIp: GENEROUS,
  sendCodePerAccount: GENEROUS,
  verifyCodePerIp: GENEROUS,
  verifyCodePerAccount: GENEROUS,
  updateUsernamePerIp: GENEROUS,
  updateUsernamePerAccount: GENEROUS,
  adminSignInPerIp: GENEROUS,
  sharedLinkPerIp: GENEROUS,
};

export interface TestAppOptions {
  rateLimits?: Partial<RateLimitSettings>;
  timing?: Partial<TimingSettings>;
  config?: Partial<AppConfig>;
  deps?: Omit<AppDeps, 'db' | 'now'>;
}

export function testConfig(
  database: TestDatabase['config'],
  smtpUrl: string | undefined,
  options: TestAppOptions = {},
): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent-lockit-test-data',
    database,
    smtpUrl,
    mailFrom: 'Lockit Test <no-reply@lockit.test>',
    appOrigin: undefined,
    publicOrigin: undefined,
    allowedHosts: [],
    rememberBrowserDays: DEFAULT_REMEMBER_BROWSER_DAYS,
    serverSecret: Buffer.from('test-server-secret-0123456789-abcdefghij', 'utf8'),
    redisUrl: undefined,
    trustProxy: false,
    cookieSecure: 'auto',
    webDistDir: undefined,
    logLevel: 'silent',
    logFormat: 'json',
    historyLimit: DEFAULT_HISTORY_LIMIT,
    trashRetentionDays: DEFAULT_TRASH_RETENTION_DAYS,
    liveSync: { heartbeatMs: 25_000, perAccount: 10 },
    unverifiedAccountHours: DEFAULT_UNVERIFIED_ACCOUNT_HOURS,
    vaultCaps: { maxItems: DEFAULT_VAULT_MAX_ITEMS, maxBytes: DEFAULT_VAULT_MAX_MEGABYTES * 1024 * 1024 },
    attachmentLimits: { maxFileBytes: 100 * 1024 * 1024, maxAccountBytes: 1024 * 1024 * 1024 },
    shareLinks: { enabled: true },
    site: DEFAULT_SITE_SETTINGS,
    breachCheckUrl: null,
    metrics: { enabled: true, token: undefined },
    adminTokenHash: undefined,
    signup: { mode: 'open', allowedEmailDomains: [], inviteLifetimeMs: 7 * 24 * 60 * 60 * 1000 },
    // Production's timeouts and connection cap; a queue no ordinary test fills (the flood test sets its own).
    loadLimits: {
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000,
      maxConnectionsPerIp: DEFAULT_MAX_CONNECTIONS_PER_IP,
      hashingConcurrency: defaultHashingConcurrency(),
      hashingQueueMax: 100_000,
    },
    rateLimits: { ...GENEROUS_RATE_LIMITS, ...options.rateLimits },
    timing: { ...DEFAULT_TIMING, ...options.timing },
    ...options.config,
  };
}

export interface TestHarness {
  app: FastifyInstance;
  db: Db;
  sink: SmtpSink;
  clock: TestClock;
  config: AppConfig;
  /** A new browser (no cookies), optionally from another IP. */
  client(remoteAddress?: string): InjectClient;
}

/**
 * The production app on a fresh database with mail going to a real SMTP sink, built once
 * per test file (beforeAll) and torn down afterwards.
 */
export function useTestApp(options: TestAppOptions = {}): TestHarness {
  const harness = {} as TestHarness;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    harness.sink = await startSmtpSink();
    harness.clock = createTestClock();
    harness.db = database.db;
    harness.config = testConfig(database.config, harness.sink.url, options);
    harness.app = await buildApp(harness.config, { ...options.deps, db: database.db, now: harness.clock.now });
    await harness.app.ready();
    harness.client = (remoteAddress?: string) => new InjectClient(harness.app, remoteAddress);
  });
  afterAll(async () => {
    await harness.app?.close();
    await harness.sink?.close();
    await database?.drop();
  });
  return harness;
}
