import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from '../app-context';
import { createAttachmentStore } from '../attachments/attachment-store';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How often the purge runs (jobs/cleanup-jobs.ts: once at each start, then on this interval). */
export const TRASH_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Entries deleted per transaction: keeps each one short, whatever the backlog. */
export const TRASH_PURGE_BATCH = 500;

/** The attachment store may be left out: it is then the one the configuration names. */
type PurgeContext = Pick<AppContext, 'db' | 'repos' | 'config' | 'now'> & Partial<Pick<AppContext, 'attachments'>>;

/**
 * Deletes every entry trashed more than TRASH_RETENTION_DAYS ago, with its history and attachments, and
 * bumps the vault revision of each owner, batch by batch, each batch one transaction.
 * Idempotent, and safe with several processes at once: each batch is one DELETE of rows
 * still expired when it runs, so a row another process purged (or its owner restored)
 * meanwhile is skipped, and only the rows deleted here lose their history. Yields the event
 * loop between batches and stops after a batch once `signal` aborts. Returns how many entries
 * this call deleted.
 */
export async function purgeExpiredTrash(ctx: PurgeContext, signal?: AbortSignal): Promise<number> {
  const cutoff = ctx.now() - ctx.config.trashRetentionDays * DAY_MS;
  const store = ctx.attachments ?? createAttachmentStore(ctx.config.database, ctx.db);
  let total = 0;
  for (;;) {
    const { purged, files } = await ctx.db.transaction().execute(async (trx) => {
      const rows = await ctx.repos.entries.deleteTrashedBefore(cutoff, TRASH_PURGE_BATCH, trx);
      await ctx.repos.history.deleteByEntries(rows, trx);
      const owners = [...new Set(rows.map((row) => row.user_id))];
      await ctx.repos.users.bumpVaultRevisions(owners, trx);
      // Each purged entry's files go with it (decision 0071).
      const files: Array<{ userId: string; ids: string[] }> = [];
      for (const userId of owners) {
        const entryIds = rows.filter((row) => row.user_id === userId).map((row) => row.id);
        const ids = await ctx.repos.attachments.idsOfEntries(userId, entryIds, trx);
        await ctx.repos.attachments.delete(userId, ids, trx);
        if (ids.length > 0) files.push({ userId, ids });
      }
      return { purged: rows.length, files };
    });
    for (const { userId, ids } of files) await store.discard(userId, ids);
    total += purged;
    if (purged < TRASH_PURGE_BATCH || signal?.aborted) return total;
    await nextTurn();
  }
}
