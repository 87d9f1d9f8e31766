import { setImmediate as nextTurn } from 'node:timers/promises';

/** Rows one statement of a cleanup job deletes at most: each transaction stays short. */
export const CLEANUP_BATCH = 500;

/**
 * Calls `deleteBatch` (which deletes at most CLEANUP_BATCH rows) until a batch comes back
 * short, and returns the rows deleted in all. Between batches it yields a turn of the event
 * loop (better-sqlite3 runs each statement synchronously), so requests are answered while a
 * large backlog drains; it stops early once `signal` aborts (shutdown, or the lease was lost).
 */
export async function deleteInBatches(deleteBatch: () => Promise<number>, signal: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted < CLEANUP_BATCH || signal.aborted) return total;
    await nextTurn();
  }
}
