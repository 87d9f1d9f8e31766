import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load-config';
import { configEnvSchema } from '../src/config/config-schema';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'lockit-config-'));
  made.push(dir);
  return dir;
}

async function configError(env: Record<string, string>): Promise<string> {
  const error = await loadConfig({ DATA_DIR: tempDir(), ...env }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}

describe('loadConfig', () => {
  it('has working defaults for a fresh clone', async () => {
    const cwd = tempDir();
    const config = await loadConfig({}, cwd);
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(path.join(cwd, 'data'));
    expect(config.database).toEqual({ kind: 'sqlite', file: path.join(cwd, 'data', 'lockit.sqlite') });
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailFrom).toBe('Lockit <no-reply@localhost>');
    expect(config.appOrigin).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.trustProxy).toBe(false);
    expect(config.cookieSecure).toBe('auto');
    expect(config.logLevel).toBe('info');
    expect(config.logFormat).toBe('auto');
    expect(config.webDistDir?.endsWith(path.join('packages', 'web', 'dist'))).toBe(true);
    expect(config.timing.codeLifetimeMs).toBe(10 * 60_000);
    expect(config.rateLimits.loginLockoutMaxSeconds).toBe(15 * 60);
    expect(config.historyLimit).toBe(50);
    expect(config.trashRetentionDays).toBe(30);
  });

  it('reads HISTORY_LIMIT and TRASH_RETENTION_DAYS, empty as unset', async () => {
    const config = await loadConfig({ DATA_DIR: tempDir(), HISTORY_LIMIT: ' 200 ', TRASH_RETENTION_DAYS: '1' });
    expect(config.historyLimit).toBe(200);
    expect(config.trashRetentionDays).toBe(1);
    const unset = await loadConfig({ DATA_DIR: tempDir(), HISTORY_LIMIT: '', TRASH_RETENTION_DAYS: '' });
    expect([unset.historyLimit, unset.trashRetentionDays]).toEqual([50, 30]);
  });

  it('reads SHARE_LINKS: on unless the operator says false, empty as unset, anything else refused', async () => {
    expect((await loadConfig({ DATA_DIR: tempDir() })).shareLinks.enabled).toBe(true);
    expect((await loadConfig({ DATA_DIR: tempDir(), SHARE_LINKS: '' })).shareLinks.enabled).toBe(true);
    expect((await loadConfig({ DATA_DIR: tempDir(), SHARE_LINKS: 'false' })).shareLinks.enabled).toBe(false);
    await expect(loadConfig({ DATA_DIR: tempDir(), SHARE_LINKS: 'maybe' })).rejects.toThrow(/SHARE_LINKS must be true or false/);
  });

  it('reads the web app’s credit and social links (LOCKIT_*), refusing a malformed one by name', async () => {
    expect((await loadConfig({ DATA_DIR: tempDir() })).site.author.label).toBe('the Lockit contributors');
    const site = (
      await loadConfig({
        DATA_DIR: tempDir(),
        LOCKIT_AUTHOR_NAME: 'Ada',
        LOCKIT_AUTHOR_URL: 'https://ada.example.org',
        LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada',
      })
    ).site;
    expect(site).toEqual({
      author: { label: 'Ada', href: 'https://ada.example.org/' },
      social: [{ label: 'GitHub', href: 'https://github.com/ada' }],
    });
    expect(await configError({ LOCKIT_AUTHOR_NAME: 'Ada' })).toMatch(
      /^Invalid configuration: LOCKIT_AUTHOR_NAME and LOCKIT_AUTHOR_URL go together/,
    );
    expect(await configError({ LOCKIT_SOCIAL_LINKS: 'X=javascript:alert(1)' })).toMatch(/LOCKIT_SOCIAL_LINKS \(X\)/);
  });

  it('reads the per-account caps VAULT_MAX_ITEMS and VAULT_MAX_MEGABYTES, generous by default', async () => {
    const defaults = await loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.vaultCaps).toEqual({ maxItems: 50_000, maxBytes: 200 * 1024 * 1024 });
    const set = await loadConfig({ DATA_DIR: tempDir(), VAULT_MAX_ITEMS: '1000', VAULT_MAX_MEGABYTES: '5' });
    expect(set.vaultCaps).toEqual({ maxItems: 1000, maxBytes: 5 * 1024 * 1024 });
    expect(await configError({ VAULT_MAX_ITEMS: '0' })).toContain('VAULT_MAX_ITEMS must be between 1 and 10000000');
    expect(await configError({ VAULT_MAX_MEGABYTES: 'lots' })).toContain('VAULT_MAX_MEGABYTES must be a number');
  });

  it('generates the server secret once (mode 0600) and reuses it', async () => {
    const dataDir = tempDir();
    const first = await loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'server-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.serverSecret).toHaveLength(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.serverSecret.toString('hex'));
    const second = await loadConfig({ DATA_DIR: dataDir });
    expect(second.serverSecret.equals(first.serverSecret)).toBe(true);
  });

  it('never shows another process starting at once a half-written secret file', async () => {
    // lockit-admin and the server (or two replicas) starting on a fresh DATA_DIR: one creates the
    // file while the other reads it. A thread reads each file as fast as it can meanwhile.
    const dataDirs = Array.from({ length: 20 }, () => tempDir());
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const reader = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const { readFileSync } = require('node:fs');
       const lengths = new Set();
       while (Atomics.load(workerData.stop, 0) === 0) {
         for (const file of workerData.files) {
           try { lengths.add(readFileSync(file, 'utf8').length); } catch {}
         }
       }
       parentPort.postMessage([...lengths]);`,
      { eval: true, workerData: { files: dataDirs.map((dir) => path.join(dir, 'server-secret')), stop } },
    );
    const lengths = new Promise<number[]>((resolve) => reader.once('message', resolve));
    await new Promise((resolve) => reader.once('online', resolve));
    try {
      for (const dataDir of dataDirs) {
        await loadConfig({ DATA_DIR: dataDir });
        expect(readdirSync(dataDir)).toEqual(['server-secret']);
      }
    } finally {
      Atomics.store(stop, 0, 1);
    }
    expect(await lengths).toEqual([65]);
    await reader.terminate();
  });

  it('uses SERVER_SECRET when given and writes no file', async () => {
    const dataDir = tempDir();
    const config = await loadConfig({ DATA_DIR: dataDir, SERVER_SECRET: 's'.repeat(40) });
    expect(config.serverSecret.toString()).toBe('s'.repeat(40));
    expect(() => statSync(path.join(dataDir, 'server-secret'))).toThrow();
  });

  it('refuses a damaged secret file with a clear message', async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'server-secret'), 'garbage');
    const message = await configError({ DATA_DIR: dataDir });
    expect(message).toContain('server-secret is damaged');
  });

  it('reads every DATABASE_URL form', async () => {
    const cwd = tempDir();
    const db = async (value: string) => (await loadConfig({ DATABASE_URL: value, SERVER_SECRET: 'x'.repeat(32) }, cwd)).database;
    expect(await db('postgres://u@h:5432/d')).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/d' });
    expect(await db('postgresql://u@h/d')).toEqual({ kind: 'postgres', url: 'postgresql://u@h/d' });
    expect(await db('sqlite:store/x.sqlite')).toEqual({ kind: 'sqlite', file: path.join(cwd, 'store/x.sqlite') });
    expect(await db('/var/lib/lockit/db.sqlite')).toEqual({ kind: 'sqlite', file: '/var/lib/lockit/db.sqlite' });
    expect(await db('rel.sqlite')).toEqual({ kind: 'sqlite', file: path.join(cwd, 'rel.sqlite') });
  });

  it('reads booleans, COOKIE_SECURE, LOG_FORMAT and origins', async () => {
    const config = await loadConfig({
      DATA_DIR: tempDir(),
      TRUST_PROXY: '2',
      COOKIE_SECURE: 'true',
      APP_ORIGIN: 'https://vault.example.com/',
      SMTP_URL: 'smtps://user:pass@mail.example.com',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PORT: '8080',
      LOG_FORMAT: 'json',
    });
    expect(config.trustProxy).toBe(2);
    expect(config.cookieSecure).toBe('always');
    expect(config.appOrigin).toBe('https://vault.example.com');
    expect(config.smtpUrl).toBe('smtps://user:pass@mail.example.com');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.port).toBe(8080);
    expect(config.logFormat).toBe('json');
  });

  it('reads ALLOWED_HOSTS as lower-case names with optional ports', async () => {
    const config = await loadConfig({ DATA_DIR: tempDir(), ALLOWED_HOSTS: ' Vault.Example.com , lockit:3000,[::2]:8443,' });
    expect(config.allowedHosts).toEqual([
      { name: 'vault.example.com', port: undefined },
      { name: 'lockit', port: 3000 },
      { name: '[::2]', port: 8443 },
    ]);
    expect((await loadConfig({ DATA_DIR: tempDir() })).allowedHosts).toEqual([]);
  });

  it('treats empty variables as unset', async () => {
    const config = await loadConfig({ DATA_DIR: tempDir(), SMTP_URL: '', APP_ORIGIN: '', REDIS_URL: '' });
    expect(config.smtpUrl).toBeUndefined();
    expect(config.appOrigin).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a number'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535'],
    [{ SMTP_URL: 'mail.example.com' }, 'SMTP_URL must start with smtp:// or smtps://'],
    [
      { APP_ORIGIN: 'https://vault.example.com/app' },
      'APP_ORIGIN must be an http(s) origin such as https://vault.example.com (no path)',
    ],
    [{ APP_ORIGIN: 'ftp://x' }, 'APP_ORIGIN must be an http(s) origin'],
    [
      { ALLOWED_HOSTS: 'vault.example.com, https://x.example/app' },
      'ALLOWED_HOSTS has "https://x.example/app", which is not a host: give host names with an optional port',
    ],
    [{ ALLOWED_HOSTS: '*.example.com' }, 'ALLOWED_HOSTS has "*.example.com", which is not a host'],
    [{ ALLOWED_HOSTS: 'lockit:99999' }, 'ALLOWED_HOSTS has "lockit:99999", which is not a host'],
    [{ SERVER_SECRET: 'short' }, 'SERVER_SECRET must be at least 32 characters long'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must start with redis:// or rediss://'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY must be false, a number of proxy hops (e.g. 1)'],
    [{ COOKIE_SECURE: 'sometimes' }, 'COOKIE_SECURE must be auto, true or false'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ LOG_FORMAT: 'yaml' }, 'LOG_FORMAT must be one of auto, json, pretty'],
    [{ DATABASE_URL: 'mysql://u@h/d' }, 'DATABASE_URL must be a file path, sqlite:<path>, or a postgres:// URL'],
    [{ HISTORY_LIMIT: 'many' }, 'HISTORY_LIMIT must be a number'],
    [{ HISTORY_LIMIT: '0' }, 'HISTORY_LIMIT must be between 1 and 1000'],
    [{ HISTORY_LIMIT: '1001' }, 'HISTORY_LIMIT must be between 1 and 1000'],
    [{ HISTORY_LIMIT: '2.5' }, 'HISTORY_LIMIT must be a whole number'],
    [{ TRASH_RETENTION_DAYS: '-1' }, 'TRASH_RETENTION_DAYS must be between 1 and 3650'],
    [{ TRASH_RETENTION_DAYS: '3651' }, 'TRASH_RETENTION_DAYS must be between 1 and 3650'],
    [{ TRASH_RETENTION_DAYS: 'a month' }, 'TRASH_RETENTION_DAYS must be a number'],
  ])('names the variable and the problem: %j', async (env, expected) => {
    const message = await configError(env);
    expect(message).toContain(expected);
    expect(message).not.toContain('\n    at ');
  });

  it('reports several problems at once', async () => {
    const message = await configError({ PORT: 'x', LOG_LEVEL: 'loud' });
    expect(message).toContain('PORT');
    expect(message).toContain('LOG_LEVEL');
  });

  it('exports the schema of every variable it reads (for the docs)', () => {
    expect(Object.keys(configEnvSchema.shape).sort()).toEqual(
      [
        'ADMIN_TOKEN',
        'ALLOWED_HOSTS',
        'APP_ORIGIN',
        'ATTACHMENT_MAX_ACCOUNT_MEGABYTES',
        'ATTACHMENT_MAX_FILE_MEGABYTES',
        'BREACH_CHECK_URL',
        'COOKIE_SECURE',
        'DATABASE_URL',
        'DATA_DIR',
        'HASHING_CONCURRENCY',
        'HASHING_QUEUE_MAX',
        'HISTORY_LIMIT',
        'HOST',
        'INVITE_LIFETIME_DAYS',
        'LIVE_HEARTBEAT_SECONDS',
        'LIVE_STREAMS_PER_ACCOUNT',
        'LOG_FORMAT',
        'LOG_LEVEL',
        'MAIL_FROM',
        'MAX_CONNECTIONS_PER_IP',
        'METRICS_ENABLED',
        'METRICS_TOKEN',
        'PORT',
        'PUBLIC_ORIGIN',
        'REDIS_URL',
        'REMEMBER_BROWSER_DAYS',
        'REQUEST_TIMEOUT_SECONDS',
        'SERVER_SECRET',
        'SHARE_LINKS',
        'SIGNUP_ALLOWED_DOMAINS',
        'SIGNUP_MODE',
        'SMTP_URL',
        'TRASH_RETENTION_DAYS',
        'TRUST_PROXY',
        'UNVERIFIED_ACCOUNT_HOURS',
        'VAULT_MAX_ITEMS',
        'VAULT_MAX_MEGABYTES',
        'WEB_DIST_DIR',
      ].sort(),
    );
  });
});
