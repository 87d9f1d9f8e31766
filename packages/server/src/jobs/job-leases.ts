import type { Db } from '../db/schema';

/**
 * A job's lease in `job_leases`: the row says which process runs the job now and until when.
 * Hand-written on purpose: no library among the installed ones leases work across processes
 * on both SQLite and PostgreSQL (PostgreSQL advisory locks have no SQLite counterpart, and a
 * table also keeps the last run for the operator's diagnostics).
 *
 * Every change is one conditional UPDATE (a compare-and-swap): taking the lease succeeds only
 * while nobody holds it or the holder's lease has run out, so of two processes trying at
 * once exactly one gets it (PostgreSQL re-checks the WHERE of a concurrently updated row;
 * SQLite runs one writer at a time). Renewing and releasing only touch a lease still held by
 * the caller. Times are the wall clock of the process (hosts sharing a database keep their
 * clocks in sync; the lease lasts far longer than any skew NTP leaves).
 */

/** How a run ended: `stopped` when the process shut down or lost the lease mid-run. */
export type JobOutcome = 'running' | 'ok' | 'failed' | 'stopped';

export interface TakeLease {
  name: string;
  holder: string;
  now: number;
  leaseMs: number;
  /** Take it only if the last run started at or before this time (undefined: whenever free). */
  lastRunBefore?: number;
}

export interface JobRun {
  name: string;
  /** When the last run started (wall-clock ms), or null if the job never ran. */
  last_run_at: number | null;
  /** `interrupted` when the holder died mid-run (its lease ran out with the run unfinished). */
  last_outcome: JobOutcome | 'interrupted' | null;
  last_deleted: number | null;
  last_duration_ms: number | null;
  /** A live process runs it right now. */
  running: boolean;
}

export function createJobLeases(db: Db) {
  return {
    /** Makes the job's row if it is missing (every process, at start; a no-op after the first). */
    async ensure(name: string): Promise<void> {
      await db
        .insertInto('job_leases')
        .values({ name, holder: null, lease_until: 0 })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    },

    /** True when this call took the lease; the run's start is recorded with it. */
    async take({ name, holder, now, leaseMs, lastRunBefore }: TakeLease): Promise<boolean> {
      let query = db
        .updateTable('job_leases')
        .set({ holder, lease_until: now + leaseMs, last_run_at: now, last_outcome: 'running' })
        .where('name', '=', name)
        .where((eb) => eb.or([eb('holder', 'is', null), eb('lease_until', '<', now)]));
      if (lastRunBefore !== undefined) {
        query = query.where((eb) => eb.or([eb('last_run_at', 'is', null), eb('last_run_at', '<=', lastRunBefore)]));
      }
      return Number((await query.executeTakeFirst()).numUpdatedRows) === 1;
    },

    /** Extends a lease the caller still holds; false when it was lost (taken over after running out). */
    async renew(name: string, holder: string, now: number, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('job_leases')
        .set({ lease_until: now + leaseMs })
        .where('name', '=', name)
        .where('holder', '=', holder)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Ends the caller's lease with the run's outcome; nothing if another process holds it by now. */
    async release(name: string, holder: string, outcome: JobOutcome, deleted: number, durationMs: number): Promise<void> {
      await db
        .updateTable('job_leases')
        .set({ holder: null, lease_until: 0, last_outcome: outcome, last_deleted: deleted, last_duration_ms: durationMs })
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute();
    },
  };
}

export type JobLeases = ReturnType<typeof createJobLeases>;

/**
 * Every job's last run, by name, for the operator's diagnostics. No row contents: names,
 * times, outcomes and counts only.
 */
export async function listJobRuns(db: Db, now = Date.now()): Promise<JobRun[]> {
  const rows = await db
    .selectFrom('job_leases')
    .select(['name', 'holder', 'lease_until', 'last_run_at', 'last_outcome', 'last_deleted', 'last_duration_ms'])
    .orderBy('name')
    .execute();
  return rows.map((row) => {
    const running = row.holder !== null && row.lease_until >= now;
    const outcome = row.last_outcome as JobOutcome | null;
    return {
      name: row.name,
      last_run_at: row.last_run_at,
      last_outcome: outcome === 'running' && !running ? 'interrupted' : outcome,
      last_deleted: row.last_deleted,
      last_duration_ms: row.last_duration_ms,
      running,
    };
  });
}
