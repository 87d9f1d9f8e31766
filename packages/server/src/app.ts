import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import { Redis } from 'ioredis';
import type { FastifyLoggerOptions } from 'fastify';
import { CLIENT_HEADER } from '@lockit/contract';
import type { AppContext } from './app-context';
import { BODY_LIMIT_BYTES, type AppConfig } from './config/app-config';
import { hasWebBuild } from './config/load-config';
import { createDatabase } from './db/create-database';
import { migrateToLatest } from './db/migrate';
import { createRepositories } from './db/repositories/index';
import type { Db } from './db/schema';
import { installSessionGuard } from './auth/require-session';
import { createSessionService } from './auth/session-service';
import { installErrorHandler } from './http/error-handler';
import { answerClientError, answerFrameworkError } from './http/pre-routing-errors';
import { installJsonBodyParser } from './http/json-body-parser';
import { loggerOptions } from './http/logger-options';
import { installOriginCheck } from './security/origin-check';
import { installSecurityHeaders } from './security/security-headers';
import { createRateLimits } from './security/rate-limits';
import type { Mailer } from './mail/mailer';
import { createSmtpMailer } from './mail/smtp-mailer';
import { createLogMailer } from './mail/log-mailer';
import { createBackgroundTasks } from './background-tasks';
import { registerApiOnlyNotFound, registerWebApp } from './web/static-web-app';
import { registerRoutes } from './routes/index';
import { createVaultListCache } from './vault/vault-list-cache';
import { purgeExpiredTrash, TRASH_PURGE_INTERVAL_MS } from './vault/trash-purge';

export interface AppDeps {
  /** A migrated database the caller owns; without it the app opens, migrates and closes its own. */
  db?: Db;
  mailer?: Mailer;
  /** A Redis client the caller owns; without it one is opened when REDIS_URL is set. */
  redis?: Redis;
  now?: () => number;
  /** How often the trash purge runs after the one at start; default hourly (tests shorten it). */
  trashPurgeIntervalMs?: number;
  /** Where logs go (tests capture them), as JSON unless LOG_FORMAT is `pretty`; default stdout. */
  logStream?: NonNullable<FastifyLoggerOptions['stream']>;
}

const REDIS_READY_TIMEOUT_MS = 2_000;

/** Builds the whole app (API, security, static web) without listening. Tests use it as is. */
export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, deps.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });

  const ownsDb = !deps.db;
  const db = deps.db ?? createDatabase(config.database);
  if (ownsDb) {
    await migrateToLatest(db, config.database.kind);
    app.addHook('onClose', async () => db.destroy());
  }
  const redis = deps.redis ?? (config.redisUrl ? await openRedis(app, config.redisUrl) : undefined);
  const now = deps.now ?? Date.now;
  const repos = createRepositories(db);
  const mailer =
    deps.mailer ??
    (config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom, Math.round(config.timing.codeLifetimeMs / 60_000))
      : createLogMailer(app.log));
  const background = createBackgroundTasks(app.log);
  const ctx: AppContext = {
    config,
    db,
    repos,
    sessions: createSessionService(db, repos, config.timing, now),
    rateLimits: createRateLimits(config.rateLimits, redis),
    mailer,
    background,
    vaultLists: createVaultListCache(),
    now,
  };
  // Once at start (ready waits for it) and then on an interval, in every process: the purge
  // is safe to run concurrently (see vault/trash-purge.ts).
  app.addHook('onReady', async () => {
    await background.repeat('trash purge', deps.trashPurgeIntervalMs ?? TRASH_PURGE_INTERVAL_MS, async () => {
      const purged = await purgeExpiredTrash(ctx);
      if (purged > 0) app.log.info({ purged }, 'trash purge: deleted entries past the retention');
    });
  });
  app.addHook('onClose', async () => {
    background.stop();
    await background.drain();
    if (!deps.mailer) await mailer.close();
    if (redis && !deps.redis) {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    }
  });

  await app.register(fastifyCookie);
  if (config.appOrigin) {
    await app.register(fastifyCors, {
      origin: [config.appOrigin],
      credentials: true,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['content-type', CLIENT_HEADER],
      maxAge: 600,
    });
  }
  installSecurityHeaders(app, config.breachCheckUrl);
  installJsonBodyParser(app);
  installOriginCheck(app, config.appOrigin);
  installSessionGuard(app, ctx.sessions);
  installErrorHandler(app);
  await app.register(registerRoutes, { ctx });

  if (hasWebBuild(config.webDistDir)) {
    await registerWebApp(app, config.webDistDir);
  } else {
    app.log.info(`No web app build at ${config.webDistDir ?? '(none)'}: serving the API only.`);
    registerApiOnlyNotFound(app);
  }
  return app;
}

async function openRedis(app: FastifyInstance, url: string): Promise<Redis> {
  // No offline queue: while Redis is down, limits fall back to memory at once instead of waiting.
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let warned = false;
  redis.on('error', (error: Error) => {
    if (!warned) app.log.warn({ err: error }, 'Redis unreachable: rate limits fall back to this process');
    warned = true;
  });
  redis.on('ready', () => {
    warned = false;
  });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REDIS_READY_TIMEOUT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}
