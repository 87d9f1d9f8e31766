import type { AppContext } from '../app-context';
import type { EntryRow } from '../db/repositories/entries-repository';
import { versionOf } from './entry-writes';
import { assertVaultRoom } from './vault-quota';
import { recordChanges } from './change-log';
import { applyVaultState, type VaultStateWrite } from './vault-state';

type BatchContext = Pick<AppContext, 'db' | 'repos' | 'config' | 'now' | 'live'>;

/** Entry ids per query when an undo looks up their files. */
const ID_SLICE = 500;

/**
 * Stores one call of an import in one transaction: every row, the vault state and revision
 * (vault-state.ts), then the caps. A taken id (unique violation), a stale or missing state or a
 * full vault throws and nothing of the call is stored. The rows carry the import's batch id,
 * for the undo.
 */
export async function addImportBatch(
  ctx: BatchContext,
  userId: string,
  rows: readonly EntryRow[],
  vaultState: VaultStateWrite | undefined,
): Promise<void> {
  const notice = await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.entries.insertMany(rows, trx);
    await applyVaultState(ctx, trx, userId, vaultState);
    await assertVaultRoom(ctx, userId, trx);
    return recordChanges(ctx, trx, userId, { entries: rows.map((row) => row.id) });
  });
  ctx.live.notify(userId, notice);
}

export type UndoOutcome =
  | { outcome: 'not-found' }
  | {
      outcome: 'undone';
      purged: number;
      trashed: number;
      /** Files of the entries deleted for good: their rows are gone, the caller frees their content after the commit. */
      attachmentIds: string[];
    };

/**
 * Undoes every call of one import, in one transaction. An entry still at revision 1 was never
 * changed since the import: it is deleted for good (it has no history). An entry changed since
 * (edited, moved, restored) holds the person's work: it goes to Trash with its history, like
 * any delete (in Trash since `trashedAt`, the browser's sealed time, or now), and one already in
 * Trash stays there. No entry of the batch: not-found (another account's batch included). The vault state advances as for any write of the live set (a
 * refusal throws and undoes nothing).
 */
export async function undoImportBatch(
  ctx: BatchContext,
  userId: string,
  batchId: string,
  vaultState: VaultStateWrite | undefined,
  trashedAt?: number,
): Promise<UndoOutcome> {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const entries = ctx.repos.entries;
    const inBatch = await entries.listByImportBatch(userId, batchId, trx);
    if (inBatch.length === 0) return { outcome: 'not-found' as const };
    const purgedIds = await entries.deleteUntouchedOfImportBatch(userId, batchId, trx);
    const purged = purgedIds.length;
    // An entry still at revision 1 may have gained files (an import brings them after its
    // items): they go with it, as with any purge (decision 0071), not left counting against the account.
    const attachmentIds: string[] = [];
    // In slices: an import of thousands of items must not make one query of thousands of parameters.
    for (let at = 0; at < purgedIds.length; at += ID_SLICE) {
      const ids = await ctx.repos.attachments.idsOfEntries(userId, purgedIds.slice(at, at + ID_SLICE), trx);
      await ctx.repos.attachments.delete(userId, ids, trx);
      attachmentIds.push(...ids);
    }
    const trashedIds: string[] = [];
    const at = ctx.now();
    let trashed = 0;
    for (const entry of inBatch) {
      if (entry.revision === 1 || entry.deleted_at !== null) continue;
      // Read in this transaction, so the revision is current: the swap cannot miss.
      if ((await entries.trash(userId, entry.id, entry.revision, at, trx, trashedAt ?? at)) !== 'updated') continue;
      await ctx.repos.history.insert(versionOf(userId, entry, at), trx);
      await ctx.repos.history.prune(userId, entry.id, ctx.config.historyLimit, trx);
      trashed += 1;
      trashedIds.push(entry.id);
    }
    await applyVaultState(ctx, trx, userId, vaultState);
    const notice = await recordChanges(ctx, trx, userId, {
      entries: trashedIds,
      purgedEntries: purgedIds.map((id) => ({ id, revision: 1 })),
    });
    return { outcome: 'undone' as const, purged, trashed, notice, attachmentIds };
  });
  if (result.outcome === 'not-found') return result;
  ctx.live.notify(userId, result.notice);
  return { outcome: 'undone', purged: result.purged, trashed: result.trashed, attachmentIds: result.attachmentIds };
}
