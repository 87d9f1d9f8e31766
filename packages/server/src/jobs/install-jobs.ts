import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { cleanupJobs, type JobName } from './cleanup-jobs';
import { createJobScheduler, type JobRunRecord } from './job-scheduler';
import { createServerHeartbeat } from './server-heartbeat';

/** How buildApp's jobs and heartbeat run; every field has a production default (tests shorten them). */
export interface JobOptions {
  /** Per job, how often it runs after the run at start; default hourly each. */
  intervalsMs?: Partial<Record<JobName, number>>;
  /** A job's lease; default DEFAULT_JOB_LEASE_MS. */
  leaseMs?: number;
  /** How often this process writes its heartbeat; default DEFAULT_HEARTBEAT_MS. */
  heartbeatMs?: number;
  /** Called after each run this process made (tests record them; metrics may count them). */
  onRun?: (run: JobRunRecord) => void;
}

/**
 * How long close waits for a running job to finish its batch and for the heartbeat row's
 * delete: a database that hangs must not hold shutdown past main.ts's grace. A job left
 * behind keeps its lease until it runs out; its batch, one statement or transaction, is whole.
 */
const CLOSE_WAIT_MS = 3_000;

/**
 * The cleanup jobs and the process heartbeat: both start when the app is ready (ready waits
 * for each job's run at start, as it did for the trash purge) and stop on close, before the
 * database closes (onClose hooks run last-registered first, and the database's is registered
 * before this).
 */
export function installJobs(app: FastifyInstance, ctx: AppContext, options: JobOptions = {}): void {
  const scheduler = createJobScheduler({
    db: ctx.db,
    jobs: cleanupJobs(ctx, options.intervalsMs),
    log: app.log,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.onRun ? { onRun: options.onRun } : {}),
  });
  const heartbeat = createServerHeartbeat({
    db: ctx.db,
    log: app.log,
    kind: ctx.config.database.kind,
    sharesRateLimits: ctx.config.redisUrl !== undefined,
    ...(options.heartbeatMs === undefined ? {} : { intervalMs: options.heartbeatMs }),
  });
  app.addHook('onReady', async () => {
    await heartbeat.start();
    await scheduler.start();
  });
  app.addHook('onClose', async () => {
    const stopped = (async () => {
      await scheduler.stop();
      await heartbeat.stop();
      return true;
    })();
    if (!(await Promise.race([stopped, sleep(CLOSE_WAIT_MS, false, { ref: false })]))) {
      app.log.warn('jobs still running at close were left behind (their leases run out on their own)');
    }
  });
}
