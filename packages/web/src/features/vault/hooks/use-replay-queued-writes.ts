import { useEffect } from 'react';
import { NetworkError, type ReplayOutcome } from '@lockit/client-core';
import { logFailure } from '@/lib/log';
import { refreshPending } from '@/lib/offline/pending-state';
import type { ConflictFlow } from '../lib/entry-conflict-flow';
import { SAVE_WORDS, type EntryWrites } from '../lib/entry-writes';

/** How often a queue that could not be sent is tried again, besides the browser's `online` event. */
export const QUEUE_RETRY_MS = 15_000;

/**
 * Sends the writes queued while the server could not be reached: at once, when the browser says
 * it is online again, and every QUEUE_RETRY_MS while any wait. Each answer goes into the screen's
 * state as any write's does; a write that met a newer version opens the conflict view (keep mine,
 * take theirs, merge), one at a time, and leaves the queue only once a choice saved; a cancel
 * keeps it queued (it is asked about again when the vault is next opened).
 */
export function useReplayQueuedWrites(writes: EntryWrites, conflicts: ConflictFlow): void {
  useEffect(() => {
    const queued = writes.queued;
    if (!queued) return;
    const account = queued.queue.account;
    /** Entries whose conflict is shown or was put off: not sent again from this page. */
    const held = new Set<string>();
    let conflictsShown: Promise<unknown> = Promise.resolve();
    let running = false;
    let stopped = false;

    const settle = async (outcome: ReplayOutcome): Promise<void> => {
      if (outcome.kind === 'saved') {
        await writes.settleWire(outcome.wire);
        return;
      }
      if (outcome.kind === 'refused') {
        logFailure('Sending a change made offline', outcome.error);
        return;
      }
      const { write, current, mine } = outcome;
      if (write.kind === 'restore') {
        // Restored or changed elsewhere meanwhile: the current version is shown.
        await writes.settleWire(current);
        await queued.queue.drop(write);
        return;
      }
      held.add(write.id);
      const kind = write.kind === 'trash' ? 'delete' : 'save';
      conflictsShown = conflictsShown.then(async () => {
        const result = await conflicts.askAbout(kind, mine, current, SAVE_WORDS);
        // A delete is settled by either choice; an edit once a choice saved it (in the history at least).
        if (result.ok || kind === 'delete') {
          await queued.queue.drop(write);
          held.delete(write.id);
        }
        await refreshPending(account);
      });
    };

    const run = async () => {
      if (running || stopped) return;
      running = true;
      try {
        if ((await refreshPending(account)).length === 0) return;
        const report = await queued.replay(held);
        for (const outcome of report.outcomes) await settle(outcome);
        if (report.stopped !== null && !(report.stopped instanceof NetworkError))
          logFailure('Sending the changes made offline', report.stopped);
      } catch (error) {
        logFailure('Sending the changes made offline', error);
      } finally {
        running = false;
        await refreshPending(account);
      }
    };

    const tryNow = () => void run();
    tryNow();
    const timer = setInterval(tryNow, QUEUE_RETRY_MS);
    window.addEventListener('online', tryNow);
    return () => {
      stopped = true;
      clearInterval(timer);
      window.removeEventListener('online', tryNow);
    };
  }, [writes, conflicts]);
}
