import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createDatabase } from '../src/db/create-database';
import type { Db } from '../src/db/schema';
import { JOB_NAMES } from '../src/jobs/cleanup-jobs';
import { listJobRuns } from '../src/jobs/job-leases';
import { createJobScheduler, type Job, type JobRunRecord } from '../src/jobs/job-scheduler';
import { createServerHeartbeat, SEVERAL_PROCESSES_WARNING } from '../src/jobs/server-heartbeat';
import { testConfig } from './helpers/test-app';
import { createTestClock } from './helpers/test-clock';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

/**
 * The scheduler across processes: each "process" here is its own scheduler on its own
 * connection to one database (PostgreSQL: its own pool on the same schema; SQLite: its own
 * connection to the same file), as two server processes would be.
 */
let database: TestDatabase;
/** Connections of other "processes", closed at the end. */
const others: Db[] = [];
const otherConnection = () => {
  const db = createDatabase(database.config);
  others.push(db);
  return db;
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(others.map((db) => db.destroy()));
  await database?.drop();
});

const logLines: string[] = [];
const log = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } } }).log;

/** A job that takes `ms` and records when each run started and ended, in this test's time. */
function slowJob(name: string, ms: number, runs: Array<{ start: number; end: number }>, intervalMs = 10): Job {
  return {
    name,
    intervalMs,
    async run(signal) {
      const start = performance.now();
      await sleep(ms);
      runs.push({ start, end: performance.now() });
      return { rows: signal.aborted ? 0 : 1 };
    },
  };
}

function expectNoOverlap(runs: ReadonlyArray<{ start: number; end: number }>) {
  const sorted = [...runs].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i += 1) expect(sorted[i]!.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end);
}

const leaseRow = (db: Db, name: string) =>
  db.selectFrom('job_leases').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

describe('the job scheduler', () => {
  it('never runs a job in two processes at once, even when a run outlasts its lease several times', async () => {
    const runs: Array<{ start: number; end: number }> = [];
    // Each run takes three leases' time: without renewal another process would take over mid-run.
    const schedulers = [database.db, otherConnection(), otherConnection()].map((db) =>
      createJobScheduler({ db, jobs: [slowJob('exclusive', 1_000, runs)], log, leaseMs: 400 }),
    );
    await Promise.all(schedulers.map((scheduler) => scheduler.start()));
    await sleep(2_500);
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expectNoOverlap(runs);
  });

  it('takes over a lease whose holder crashed, and leaves one that a live holder keeps', async () => {
    const held: Array<{ start: number; end: number }> = [];
    const crashed: Array<{ start: number; end: number }> = [];
    const schedulerOf = (name: string, runs: typeof held) =>
      createJobScheduler({ db: otherConnection(), jobs: [slowJob(name, 1, runs, 60_000)], log });
    // Rows as a crashed process leaves them: it started a run just now, so no tick is due,
    // and its lease either runs out in a minute (alive) or ran out a moment ago (crashed).
    const now = Date.now();
    const row = { holder: 'other-process', last_run_at: now, last_outcome: 'running' };
    await database.db
      .insertInto('job_leases')
      .values([
        { name: 'held', ...row, lease_until: now + 60_000 },
        { name: 'crashed', ...row, lease_until: now - 1 },
      ])
      .execute();
    expect((await listJobRuns(database.db)).filter((run) => run.name === 'crashed')).toMatchObject([
      { last_outcome: 'interrupted', running: false },
    ]);

    const schedulers = [schedulerOf('held', held), schedulerOf('crashed', crashed)];
    await Promise.all(schedulers.map((scheduler) => scheduler.start()));
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    expect(held).toHaveLength(0);
    expect(crashed).toHaveLength(1);
    expect(await leaseRow(database.db, 'held')).toMatchObject({ holder: 'other-process', last_outcome: 'running' });
    expect(await leaseRow(database.db, 'crashed')).toMatchObject({ holder: null, last_outcome: 'ok', last_deleted: 1 });
  });

  it('runs a job about once per interval across processes, not once per process', async () => {
    const runs: Array<{ start: number; end: number }> = [];
    const schedulers = [database.db, otherConnection(), otherConnection()].map((db) =>
      createJobScheduler({ db, jobs: [slowJob('shared-interval', 1, runs, 300)], log }),
    );
    await schedulers[0]!.start();
    // The others start later: their runs at start happen, then the interval is shared.
    await Promise.all(schedulers.slice(1).map((scheduler) => scheduler.start()));
    const afterStart = runs.length;
    await sleep(1_400);
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    // Three processes ticking every 300 ms would make about 13 runs in 1.4 s; shared, about 4.
    expect(runs.length - afterStart).toBeGreaterThanOrEqual(2);
    expect(runs.length - afterStart).toBeLessThanOrEqual(7);
  });

  it('stops a run whose lease another process took, and a run the shutdown interrupts', async () => {
    let seen: AbortSignal | undefined;
    const records: JobRunRecord[] = [];
    const job: Job = {
      name: 'stolen',
      intervalMs: 60_000,
      async run(signal) {
        seen = signal;
        while (!signal.aborted) await sleep(10);
        return { rows: 0 };
      },
    };
    const scheduler = createJobScheduler({ db: otherConnection(), jobs: [job], log, leaseMs: 90, onRun: (r) => records.push(r) });
    const started = scheduler.start();
    while (!seen) await sleep(5);
    await database.db.updateTable('job_leases').set({ holder: 'thief' }).where('name', '=', 'stolen').execute();
    await started;
    await scheduler.stop();
    expect(records).toMatchObject([{ name: 'stolen', outcome: 'stopped' }]);
    // The thief's lease is left alone: releasing only touches a lease still held.
    expect(await leaseRow(database.db, 'stolen')).toMatchObject({ holder: 'thief' });

    seen = undefined;
    const second = createJobScheduler({ db: otherConnection(), jobs: [{ ...job, name: 'shut-down' }], log });
    const starting = second.start();
    while (!seen) await sleep(5);
    await second.stop();
    await starting;
    expect(await leaseRow(database.db, 'shut-down')).toMatchObject({ holder: null, last_outcome: 'stopped' });
  });

  it('logs what a run deleted at info, and a failure at error, and records both', async () => {
    logLines.length = 0;
    const jobs: Job[] = [
      { name: 'deletes', intervalMs: 60_000, run: async () => ({ codes: 3, sessions: 2 }) },
      { name: 'idle', intervalMs: 60_000, run: async () => ({ codes: 0 }) },
      {
        name: 'fails',
        intervalMs: 60_000,
        run: async () => {
          throw new Error('disk on fire');
        },
      },
    ];
    const scheduler = createJobScheduler({ db: database.db, jobs, log });
    await scheduler.start();
    await scheduler.stop();
    const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.level === 30)).toEqual([
      expect.objectContaining({ job: 'deletes', codes: 3, sessions: 2, msg: 'job deletes: deleted 5 rows' }),
    ]);
    expect(lines.filter((line) => line.level === 50)).toEqual([
      expect.objectContaining({ job: 'fails', msg: 'job fails failed' }),
    ]);
    const runs = await listJobRuns(database.db);
    expect(runs.filter((run) => ['deletes', 'idle', 'fails'].includes(run.name))).toEqual([
      expect.objectContaining({ name: 'deletes', last_outcome: 'ok', last_deleted: 5, running: false }),
      expect.objectContaining({ name: 'fails', last_outcome: 'failed', last_deleted: 0, running: false }),
      expect.objectContaining({ name: 'idle', last_outcome: 'ok', last_deleted: 0, running: false }),
    ]);
    for (const run of runs) expect(run.last_run_at).toBeGreaterThan(0);
  });
});

describe('two app instances on one database', () => {
  it('run each cleanup job on its schedule, never two runs of one job at once', async () => {
    const records: JobRunRecord[] = [];
    const clock = createTestClock();
    const config = testConfig(database.config, undefined);
    const jobs = {
      intervalsMs: Object.fromEntries(JOB_NAMES.map((name) => [name, 15])),
      onRun: (run: JobRunRecord) => records.push(run),
    };
    // On SQLite both share this test's one connection: two connections in one process would
    // wait on each other's open transaction synchronously (better-sqlite3's busy wait blocks
    // the event loop the other needs to commit). Separate processes do not; the tests above
    // run the lease itself over separate connections, and several-processes-warning.test.ts runs processes.
    const second = database.config.kind === 'sqlite' ? database.db : otherConnection();
    const apps = await Promise.all([database.db, second].map((db) => buildApp(config, { db, now: clock.now, jobs })));
    try {
      await Promise.all(apps.map((app) => app.ready()));
      await sleep(1_000);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
    for (const name of JOB_NAMES) {
      const runs = records.filter((run) => run.name === name);
      expect(runs.length, name).toBeGreaterThanOrEqual(3);
      // `stopped`: a run the close interrupted.
      expect(
        runs.filter((run) => run.outcome !== 'ok' && run.outcome !== 'stopped'),
        name,
      ).toEqual([]);
      expectNoOverlap(runs.map((run) => ({ start: run.startedAt, end: run.endedAt })));
    }
    expect(new Set(records.map((run) => run.holder)).size).toBe(2);
    const listed = await listJobRuns(database.db);
    expect(listed.filter((run) => (JOB_NAMES as readonly string[]).includes(run.name)).map((run) => run.name)).toEqual(
      [...JOB_NAMES].sort(),
    );
  });
});

describe('the process heartbeat', () => {
  it('does not count a row left by a process of this host that is gone (a restart after a crash)', async () => {
    const warning = SEVERAL_PROCESSES_WARNING[database.config.kind];
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const now = Date.now();
    const row = { host: hostname(), started_at: now, heartbeat_at: now };
    await database.db
      .insertInto('server_processes')
      .values({ ...row, id: 'crashed', pid: gone })
      .execute();
    const heartbeatOf = () =>
      createServerHeartbeat({ db: otherConnection(), log, kind: database.config.kind, sharesRateLimits: false });

    logLines.length = 0;
    const alone = heartbeatOf();
    await alone.start();
    expect(logLines.filter((line) => line.includes(warning))).toEqual([]);
    // A live one (the process running this test, as another app would be) is counted.
    const other = heartbeatOf();
    await other.start();
    expect(logLines.filter((line) => line.includes(warning))).toHaveLength(1);
    await Promise.all([alone.stop(), other.stop()]);
    const left = await database.db.selectFrom('server_processes').select('id').execute();
    expect(left.map((process) => process.id)).toEqual(['crashed']);
  });
});
