import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema';
import { createJobLeases, type JobOutcome } from './job-leases';

/** What one run of a job deleted, by kind of row (logged, and summed into the job table). */
export type JobCounts = Record<string, number>;

export interface Job {
  name: string;
  /** How often the job runs, counted across every process (see `createJobScheduler`). */
  intervalMs: number;
  /** Does the work; checks `signal` between batches and stops once it aborts. */
  run(signal: AbortSignal): Promise<JobCounts>;
}

/** One run that happened in this process, start to end, as its observer sees it. */
export interface JobRunRecord {
  name: string;
  holder: string;
  startedAt: number;
  endedAt: number;
  outcome: JobOutcome;
  counts: JobCounts;
}

export interface JobSchedulerOptions {
  db: Db;
  jobs: readonly Job[];
  log: FastifyBaseLogger;
  /** How long a lease lasts unless renewed; renewed every third of it while the job runs. */
  leaseMs?: number;
  /** Wall clock for leases and schedules (not the app's `now`, which tests move by days). */
  clock?: () => number;
  /** Called after each run this process made, before its lease is released (tests, metrics). */
  onRun?: (run: JobRunRecord) => void;
}

/** Long enough that no stall short of a hung process loses it; short enough that a crash frees it soon. */
export const DEFAULT_JOB_LEASE_MS = 60_000;

/**
 * Runs each job once at start and then every `intervalMs`, with at most one process running
 * a given job at a time, across every process on the database (job-leases.ts). A tick runs the
 * job only if no process started it within the last 90% of its interval, so N processes run
 * it about once per interval, not N times; the run at start skips that check (only a run in
 * progress elsewhere stops it), so a process that starts after a long stop cleans up at once.
 * A run that loses its lease (it stalled past the lease and another process took over) or
 * that the process's shutdown interrupts is told through its signal and stops after its batch.
 */
export function createJobScheduler(options: JobSchedulerOptions) {
  const { db, jobs, log } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_JOB_LEASE_MS;
  const clock = options.clock ?? Date.now;
  const holder = randomUUID();
  const leases = createJobLeases(db);
  const shutdown = new AbortController();
  const running = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  /** Jobs whose row exists: made on the first attempt, so a database down at start only delays it. */
  const ensured = new Set<string>();

  async function runOnce(job: Job): Promise<void> {
    // Read after the lease was taken: a run that waited for another's release starts after its end.
    const startedAt = clock();
    const run = new AbortController();
    const stop = () => run.abort();
    shutdown.signal.addEventListener('abort', stop);
    const renewal = setInterval(() => {
      leases.renew(job.name, holder, clock(), leaseMs).then(
        (kept) => {
          if (kept) return;
          log.warn({ job: job.name }, `job ${job.name}: its lease was taken over; stopping this run`);
          run.abort();
        },
        (error: unknown) => {
          log.warn({ err: error, job: job.name }, `job ${job.name}: could not renew its lease; stopping this run`);
          run.abort();
        },
      );
    }, leaseMs / 3);
    renewal.unref();

    let outcome: JobOutcome = 'ok';
    let counts: JobCounts = {};
    try {
      counts = await job.run(run.signal);
      if (run.signal.aborted) outcome = 'stopped';
    } catch (error) {
      outcome = run.signal.aborted ? 'stopped' : 'failed';
      if (outcome === 'failed') log.error({ err: error, job: job.name }, `job ${job.name} failed`);
    } finally {
      clearInterval(renewal);
      shutdown.signal.removeEventListener('abort', stop);
    }
    const endedAt = clock();
    const deleted = Object.values(counts).reduce((sum, n) => sum + n, 0);
    options.onRun?.({ name: job.name, holder, startedAt, endedAt, outcome, counts });
    if (deleted > 0)
      log.info({ job: job.name, ...counts, durationMs: endedAt - startedAt }, `job ${job.name}: deleted ${deleted} rows`);
    await leases.release(job.name, holder, outcome, deleted, endedAt - startedAt);
  }

  /** Runs the job here if this process is not running it already and takes its lease. */
  async function attempt(job: Job, atStart: boolean): Promise<void> {
    if (running.has(job.name) || shutdown.signal.aborted) return;
    const done = (async () => {
      if (!ensured.has(job.name)) {
        await leases.ensure(job.name);
        ensured.add(job.name);
      }
      const now = clock();
      const taken = await leases.take({
        name: job.name,
        holder,
        now,
        leaseMs,
        ...(atStart ? {} : { lastRunBefore: now - Math.floor(job.intervalMs * 0.9) }),
      });
      if (taken) await runOnce(job);
    })()
      .catch((error: unknown) => log.error({ err: error, job: job.name }, `job ${job.name} could not run`))
      .finally(() => running.delete(job.name));
    running.set(job.name, done);
    await done;
  }

  return {
    /** This process's id in the job table. */
    holder,

    /**
     * Runs each job once (one after the other: on SQLite they share one connection anyway),
     * then starts their intervals. Never throws (a failure is logged, the next tick retries).
     * Timers never keep the process alive.
     */
    async start(): Promise<void> {
      for (const job of jobs) await attempt(job, true);
      if (shutdown.signal.aborted) return;
      for (const job of jobs) {
        const timer = setInterval(() => void attempt(job, false), job.intervalMs);
        timer.unref();
        timers.push(timer);
      }
    },

    /** Stops the intervals, tells running jobs to stop after their batch, and waits for them. */
    async stop(): Promise<void> {
      for (const timer of timers) clearInterval(timer);
      shutdown.abort();
      await Promise.allSettled([...running.values()]);
    },
  };
}

export type JobScheduler = ReturnType<typeof createJobScheduler>;
