import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import type { Redis } from 'ioredis';
import type { FastifyLoggerOptions } from 'fastify';
import { CLIENT_HEADER, TRASHED_AT_HEADER, VAULT_STATE_HEADER } from '@lockit/contract';
import type { AppContext } from './app-context';
import { BODY_LIMIT_BYTES, type AppConfig } from './config/app-config';
import { hasWebBuild } from './config/load-config';
import { createDatabase } from './db/create-database';
import { createAttachmentStore } from './attachments/attachment-store';
import { watchPostgresPool } from './db/database-outage-log';
import { migrateToLatest } from './db/migrate';
import { createRepositories } from './db/repositories/index';
import type { Db } from './db/schema';
import { installSessionGuard } from './auth/require-session';
import { createSessionService } from './auth/session-service';
import { installErrorHandler } from './http/error-handler';
import { installRouteTableValidation } from './http/route-table-validation';
import { answerClientError, answerFrameworkError } from './http/pre-routing-errors';
import { installJsonBodyParser } from './http/json-body-parser';
import { installConnectionCap, serverTimeouts } from './http/connection-limits';
import { installUnreadBodyDrain } from './http/unread-body-drain';
import { limitHashing } from './auth/password-hashing';
import { loggerOptions } from './http/logger-options';
import { installOriginCheck } from './security/origin-check';
import { installHostCheck } from './security/host-check';
import { installSecurityHeaders } from './security/security-headers';
import { createRateLimits } from './security/rate-limits';
import { behindProxy, fastifyTrustProxy } from './http/trust-proxy';
import { openRedis } from './security/open-redis';
import type { Mailer } from './mail/mailer';
import { createSmtpMailer } from './mail/smtp-mailer';
import { createLogMailer } from './mail/log-mailer';
import { createMailDeliveries } from './mail/mail-deliveries';
import { createBackgroundTasks } from './background-tasks';
import { registerApiOnlyNotFound, registerWebApp } from './web/static-web-app';
import { registerRoutes } from './routes/index';
import { createAdminContext } from './admin/admin-context';
import { createVaultListCache } from './vault/vault-list-cache';
import { installJobs, type JobOptions } from './jobs/install-jobs';
import { createAppMetrics } from './observability/app-metrics';
import { registerDatabasePoolMetrics } from './observability/db-pool-metrics';
import { installHttpMetrics } from './observability/http-metrics';
import { instrumentMailer } from './observability/instrumented-mailer';
import { registerHealthRoutes } from './observability/health-routes';
import { registerMetricsRoute } from './observability/metrics-route';
import { openLiveSync } from './live/open-live-sync';

export interface AppDeps {
  /** A migrated database the caller owns; without it the app opens, migrates and closes its own. */
  db?: Db;
  mailer?: Mailer;
  /** A Redis client the caller owns; without it one is opened when REDIS_URL is set. */
  redis?: Redis;
  now?: () => number;
  /** The cleanup jobs' intervals and leases, and the heartbeat's (jobs/install-jobs.ts); tests shorten them. */
  jobs?: JobOptions;
  /** Where logs go (tests capture them), as JSON unless LOG_FORMAT is `pretty`; default stdout. */
  logStream?: NonNullable<FastifyLoggerOptions['stream']>;
}

/** How long close waits for background work (mail being sent): well inside main.ts's grace. */
const BACKGROUND_DRAIN_MS = 5_000;

/** Builds the whole app (API, security, static web) without listening. Tests use it as is. */
export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, deps.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    ...serverTimeouts(config.loadLimits),
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });

  installConnectionCap(app.server, config.loadLimits, behindProxy(config.trustProxy), app.log);
  limitHashing({ concurrency: config.loadLimits.hashingConcurrency, maxQueued: config.loadLimits.hashingQueueMax });

  const ownsDb = !deps.db;
  const db = deps.db ?? createDatabase(config.database);
  watchPostgresPool(db, app.log);
  if (ownsDb) {
    await migrateToLatest(db, config.database.kind);
    app.addHook('onClose', async () => db.destroy());
  }
  const redis = deps.redis ?? (config.redisUrl ? await openRedis(config.redisUrl, app.log) : undefined);
  const now = deps.now ?? Date.now;
  const repos = createRepositories(db);
  const mailer =
    deps.mailer ??
    (config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom, Math.round(config.timing.codeLifetimeMs / 60_000))
      : createLogMailer(app.log));
  const background = createBackgroundTasks(app.log);
  const metrics = createAppMetrics();
  registerDatabasePoolMetrics(metrics.registry, db);
  const ctx: AppContext = {
    config,
    db,
    repos,
    sessions: createSessionService(db, repos, config.timing, now),
    rateLimits: createRateLimits(config.rateLimits, redis, metrics.rateLimitRefused),
    mailer: instrumentMailer(mailer, metrics),
    background,
    // Wall time, not the app clock: decoys keep pace with how long real SMTP sends take.
    mailDeliveries: createMailDeliveries(Date.now),
    vaultLists: createVaultListCache(),
    metrics,
    attachments: createAttachmentStore(config.database, db),
    now,
    admin: createAdminContext(config, db, redis, now),
    live: await openLiveSync(config, db, redis, now, app.log),
  };
  // Before close waits for connections: an open event stream would hold it forever.
  app.addHook('preClose', async () => ctx.live.close());
  // Each job once at start (ready waits for it), then on its interval, one process at a time.
  installJobs(app, ctx, deps.jobs);
  app.addHook('onClose', async () => {
    await background.drain(BACKGROUND_DRAIN_MS);
    if (!deps.mailer) await mailer.close();
    if (redis && !deps.redis) {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    }
  });

  // First of all hooks: a request for a host that is not ours gets nothing (DNS rebinding).
  installHostCheck(app, config);
  await app.register(fastifyCookie);
  if (config.appOrigin) {
    await app.register(fastifyCors, {
      origin: [config.appOrigin],
      credentials: true,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      // The vault state rides on writes and on the list and folder answers (decision 0053).
      allowedHeaders: ['content-type', CLIENT_HEADER, VAULT_STATE_HEADER, TRASHED_AT_HEADER],
      // The web app reads it to say how long to wait (e.g. Resend Code), also from another origin.
      exposedHeaders: ['retry-after', VAULT_STATE_HEADER],
      maxAge: 600,
    });
  }
  installHttpMetrics(app, metrics);
  installSecurityHeaders(app, config.breachCheckUrl);
  installJsonBodyParser(app);
  installUnreadBodyDrain(app);
  installOriginCheck(app, config.appOrigin);
  installSessionGuard(app, ctx.sessions);
  installErrorHandler(app);
  // Before any route: each is checked against the contract's route table as it is registered.
  installRouteTableValidation(app, metrics.inputRefused);
  await app.register(registerRoutes, { ctx });
  // Outside /api and before the web app, whose fallback would answer them with its shell.
  registerHealthRoutes(app, { db, redis });
  registerMetricsRoute(app, metrics, config.metrics);

  if (hasWebBuild(config.webDistDir)) {
    await registerWebApp(app, config.webDistDir, config.signup.mode, config.site);
  } else {
    app.log.info(`No web app build at ${config.webDistDir ?? '(none)'}: serving the API only.`);
    registerApiOnlyNotFound(app);
  }
  return app;
}
