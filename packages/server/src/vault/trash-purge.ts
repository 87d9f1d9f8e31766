import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChangeNotice } from '@lockit/contract';
import type { AppContext } from '../app-context';
import { recordChanges } from './change-log';
import { createAttachmentStore } from '../attachments/attachment-store';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How often the purge runs (jobs/cleanup-jobs.ts: once at each start, then on this interval). */
export const TRASH_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Entries deleted per transaction: keeps each one short, whatever the backlog. */
export const TRASH_PURGE_BATCH = 500;

/** Tombstones (decision 0066) are kept this long; a device away longer reads its vault whole. */
export const TOMBSTONE_RETENTION_DAYS = 90;

/**
 * Without `live` (a test's bare run) nobody is told; the cursor still shows the purge. The
 * attachment store may be left out: it is then the one the configuration names.
 */
type PurgeContext = Pick<AppContext, 'db' | 'repos' | 'config' | 'now'> & Partial<Pick<AppContext, 'live' | 'attachments'>>;

/**
 * Deletes every entry trashed more than TRASH_RETENTION_DAYS ago, with its history and attachments, and
 * bumps the vault revision of each owner, batch by batch, each batch one transaction.
 * Idempotent, and safe with several processes at once: each batch is one DELETE of rows
 * still expired when it runs, so a row another process purged (or its owner restored)
 * meanwhile is skipped, and only the rows deleted here lose their history. Yields the event
 * loop between batches and stops after a batch once `signal` aborts. Each deletion leaves a
 * tombstone at its owner's new change sequence (decision 0066), and each owner's devices are
 * told once the batch commits. Then tombstones older than TOMBSTONE_RETENTION_DAYS are pruned
 * (raising their owners' cursor floor). Returns how many entries this call deleted.
 */
export async function purgeExpiredTrash(ctx: PurgeContext, signal?: AbortSignal): Promise<number> {
  const cutoff = ctx.now() - ctx.config.trashRetentionDays * DAY_MS;
  const store = ctx.attachments ?? createAttachmentStore(ctx.config.database, ctx.db);
  let total = 0;
  for (;;) {
    const { purged, notices, files } = await ctx.db.transaction().execute(async (trx) => {
      const rows = await ctx.repos.entries.deleteTrashedBefore(cutoff, TRASH_PURGE_BATCH, trx);
      await ctx.repos.history.deleteByEntries(rows, trx);
      const owners = [...new Set(rows.map((row) => row.user_id))];
      await ctx.repos.users.bumpVaultRevisions(owners, trx);
      const told: Array<[string, ChangeNotice]> = [];
      // Each purged entry's files go with it (decision 0071).
      const files: Array<{ userId: string; ids: string[] }> = [];
      for (const owner of owners) {
        const gone = rows.filter((row) => row.user_id === owner).map((row) => ({ id: row.id, revision: Number(row.revision) }));
        const ids = await ctx.repos.attachments.idsOfEntries(
          owner,
          gone.map((row) => row.id),
          trx,
        );
        await ctx.repos.attachments.delete(owner, ids, trx);
        if (ids.length > 0) files.push({ userId: owner, ids });
        told.push([owner, await recordChanges(ctx, trx, owner, { purgedEntries: gone })]);
      }
      return { purged: rows.length, notices: told, files };
    });
    for (const [owner, notice] of notices) ctx.live?.notify(owner, notice);
    for (const { userId, ids } of files) await store.discard(userId, ids);
    total += purged;
    if (purged < TRASH_PURGE_BATCH || signal?.aborted) break;
    await nextTurn();
  }
  const tombstoneCutoff = ctx.now() - TOMBSTONE_RETENTION_DAYS * DAY_MS;
  while (!signal?.aborted) {
    const pruned = await ctx.db
      .transaction()
      .execute((trx) => ctx.repos.changes.pruneBefore(tombstoneCutoff, TRASH_PURGE_BATCH, trx));
    if (pruned < TRASH_PURGE_BATCH) break;
    await nextTurn();
  }
  return total;
}
