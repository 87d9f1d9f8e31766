import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseSiteSettings, SiteSettingsError, type SiteSettings } from '@lockit/contract/site-settings';
import { configEnvSchema, type ConfigEnv } from './config-schema';
import { DEFAULT_RATE_LIMITS } from './rate-limit-settings';
import { DEFAULT_TIMING, type AppConfig, type DatabaseConfig } from './app-config';
import { loadOrCreateServerSecret } from './server-secret';
import { DEFAULT_WEB_DIST } from './package-paths';
import { defaultHashingConcurrency } from '../auth/hashing-queue';

/** A configuration problem a person can fix; main prints the message and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates the environment and resolves it to an AppConfig. Throws ConfigError. */
export async function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<AppConfig> {
  const parsed = parseEnv(env);
  const site = parseSite(env);
  const dataDir = path.resolve(cwd, parsed.DATA_DIR);
  const database = parseDatabaseUrl(parsed.DATABASE_URL, dataDir, cwd);
  const serverSecret = parsed.SERVER_SECRET
    ? Buffer.from(parsed.SERVER_SECRET, 'utf8')
    : await loadOrCreateServerSecret(dataDir).catch((error: unknown) => {
        throw new ConfigError(`SERVER_SECRET is not set and ${describe(error)}`);
      });
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    database,
    smtpUrl: parsed.SMTP_URL,
    mailFrom: parsed.MAIL_FROM,
    appOrigin: parsed.APP_ORIGIN,
    publicOrigin: parsed.PUBLIC_ORIGIN,
    allowedHosts: parsed.ALLOWED_HOSTS,
    rememberBrowserDays: parsed.REMEMBER_BROWSER_DAYS,
    serverSecret,
    redisUrl: parsed.REDIS_URL,
    trustProxy: parsed.TRUST_PROXY,
    cookieSecure: { auto: 'auto', true: 'always', false: 'never' }[parsed.COOKIE_SECURE] as AppConfig['cookieSecure'],
    webDistDir: path.resolve(cwd, parsed.WEB_DIST_DIR ?? DEFAULT_WEB_DIST),
    logLevel: parsed.LOG_LEVEL,
    logFormat: parsed.LOG_FORMAT,
    historyLimit: parsed.HISTORY_LIMIT,
    trashRetentionDays: parsed.TRASH_RETENTION_DAYS,
    liveSync: { heartbeatMs: parsed.LIVE_HEARTBEAT_SECONDS * 1000, perAccount: parsed.LIVE_STREAMS_PER_ACCOUNT },
    unverifiedAccountHours: parsed.UNVERIFIED_ACCOUNT_HOURS,
    vaultCaps: { maxItems: parsed.VAULT_MAX_ITEMS, maxBytes: parsed.VAULT_MAX_MEGABYTES * 1024 * 1024 },
    attachmentLimits: {
      maxFileBytes: parsed.ATTACHMENT_MAX_FILE_MEGABYTES * 1024 * 1024,
      maxAccountBytes: parsed.ATTACHMENT_MAX_ACCOUNT_MEGABYTES * 1024 * 1024,
    },
    breachCheckUrl: parsed.BREACH_CHECK_URL,
    metrics: { enabled: parsed.METRICS_ENABLED, token: parsed.METRICS_TOKEN },
    adminTokenHash: parsed.ADMIN_TOKEN,
    shareLinks: { enabled: parsed.SHARE_LINKS },
    site,
    signup: {
      mode: parsed.SIGNUP_MODE,
      allowedEmailDomains: parsed.SIGNUP_ALLOWED_DOMAINS,
      inviteLifetimeMs: parsed.INVITE_LIFETIME_DAYS * 24 * 60 * 60 * 1000,
    },
    loadLimits: {
      requestTimeoutMs: parsed.REQUEST_TIMEOUT_SECONDS * 1000,
      maxConnectionsPerIp: parsed.MAX_CONNECTIONS_PER_IP,
      hashingConcurrency: parsed.HASHING_CONCURRENCY || defaultHashingConcurrency(env),
      hashingQueueMax: parsed.HASHING_QUEUE_MAX,
    },
    rateLimits: DEFAULT_RATE_LIMITS,
    timing: DEFAULT_TIMING,
  };
}

export function parseEnv(env: NodeJS.ProcessEnv): ConfigEnv {
  const result = configEnvSchema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}.`);
  throw new ConfigError(`Invalid configuration: ${lines.join(' ')}`);
}

export function parseDatabaseUrl(value: string | undefined, dataDir: string, cwd: string): DatabaseConfig {
  if (value === undefined) return { kind: 'sqlite', file: path.join(dataDir, 'lockit.sqlite') };
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('Invalid configuration: DATABASE_URL is not a valid postgres:// URL.');
    }
    return { kind: 'postgres', url: value };
  }
  if (/^sqlite:/i.test(value)) {
    const file = value.replace(/^sqlite:(\/\/)?/i, '');
    if (file === '') throw new ConfigError('Invalid configuration: DATABASE_URL sqlite: needs a file path after it.');
    return { kind: 'sqlite', file: path.resolve(cwd, file) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError('Invalid configuration: DATABASE_URL must be a file path, sqlite:<path>, or a postgres:// URL.');
  }
  return { kind: 'sqlite', file: path.resolve(cwd, value) };
}

/** The credit and social links the web app shows (docs/configuration.md). Throws ConfigError. */
export function parseSite(env: NodeJS.ProcessEnv): SiteSettings {
  try {
    return parseSiteSettings(env);
  } catch (error) {
    if (error instanceof SiteSettingsError) throw new ConfigError(`Invalid configuration: ${error.message}`);
    throw error;
  }
}

/** True when the folder holds a built web app. */
export function hasWebBuild(dir: string | undefined): dir is string {
  return dir !== undefined && existsSync(path.join(dir, 'index.html'));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
