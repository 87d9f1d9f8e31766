import type { ChangeNotice } from '@lockit/contract';
import type { AppContext } from '../app-context';
import type { Tombstone } from '../db/repositories/change-log-repository';
import type { Executor } from '../db/schema';

/** What one write did to the vault's members, for the change cursor (decision 0066). */
export interface VaultChanges {
  /** Entries added or changed (edit, Trash, restore, import). */
  entries?: readonly string[];
  folders?: readonly string[];
  /** Deleted for good, with the revision each had. */
  purgedEntries?: readonly Tombstone[];
  purgedFolders?: readonly Tombstone[];
}

/**
 * The change-log step of a write: call it INSIDE the write's transaction, after
 * applyVaultState (or any other bump of the vault revision), which made this write's change
 * sequence. Stamps every row the write touched with it and records a tombstone for each row
 * deleted for good, so the cursor answer after this commit names exactly this write. Returns
 * the notice to publish once the transaction has committed (never before: a notice of a write
 * that rolled back would send clients after a change that does not exist).
 */
export async function recordChanges(
  ctx: Pick<AppContext, 'repos' | 'now'>,
  trx: Executor,
  userId: string,
  changes: VaultChanges,
): Promise<ChangeNotice> {
  const log = ctx.repos.changes;
  const seq = await log.currentSeq(userId, trx);
  const at = ctx.now();
  if (changes.entries?.length) await log.stamp('entries', userId, changes.entries, seq, trx);
  if (changes.folders?.length) await log.stamp('folders', userId, changes.folders, seq, trx);
  if (changes.purgedEntries?.length) await log.tombstone(userId, 'entry', changes.purgedEntries, seq, at, trx);
  if (changes.purgedFolders?.length) await log.tombstone(userId, 'folder', changes.purgedFolders, seq, at, trx);
  const ids = [
    ...(changes.entries ?? []),
    ...(changes.folders ?? []),
    ...(changes.purgedEntries ?? []).map((row) => row.id),
    ...(changes.purgedFolders ?? []).map((row) => row.id),
  ];
  return ids.length === 1 ? { seq, id: ids[0]! } : { seq };
}
