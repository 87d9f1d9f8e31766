import { randomUUID } from 'node:crypto';
import type { ChangeNotice } from '@lockit/contract';
import type { AppContext } from '../app-context';
import type { EntryFields, StoredEntry } from '../db/repositories/entries-repository';
import type { EntryVersionRow } from '../db/repositories/entry-history-repository';
import { assertVaultRoom } from './vault-quota';
import { recordChanges } from './change-log';
import { applyVaultState, type VaultStateWrite } from './vault-state';

type WriteContext = Pick<AppContext, 'db' | 'repos' | 'config' | 'now' | 'live'>;

/** A refused write names the entry as it is now, for the 409 answer. */
export type EntryRefusal = { outcome: 'not-found' } | { outcome: 'revision-mismatch' | 'wrong-state'; current: StoredEntry };

/** A move to Trash may name its trash time (the browser's, sealed in the vault state); else it is now. */
export type EntryChange =
  { kind: 'update'; fields: Partial<EntryFields> } | { kind: 'trash'; trashedAt?: number | undefined } | { kind: 'restore' };

/**
 * Every write to an existing entry (edit, move to Trash, restore) as one transaction:
 *
 * 1. the compare-and-swap on the entry, applied only at `expectedRevision`;
 * 2. the version it replaced into history, then history pruned to HISTORY_LIMIT versions;
 * 3. the vault state advanced to `vaultState` and the user's vault revision bumped (the list
 *    cache and other processes rely on it); see vault-state.ts, whose refusal (stale or
 *    missing state) throws and rolls all of it back. The entry's own revision conflict is
 *    found first and answered as before.
 *
 * The version kept is the one read before the swap, and only if it was at the expected
 * revision: the swap then applied to exactly that version, since every write bumps the
 * revision. A refused write changes nothing.
 */
export async function changeEntry(
  ctx: WriteContext,
  userId: string,
  id: string,
  expectedRevision: number,
  change: EntryChange,
  vaultState: VaultStateWrite | undefined,
): Promise<{ outcome: 'updated'; entry: StoredEntry } | EntryRefusal> {
  type Written = { outcome: 'updated'; entry: StoredEntry; notice: ChangeNotice } | EntryRefusal;
  const result = await ctx.db.transaction().execute(async (trx): Promise<Written> => {
    const before = await ctx.repos.entries.find(userId, id, trx);
    if (!before) return { outcome: 'not-found' };
    if (before.revision !== expectedRevision) return { outcome: 'revision-mismatch', current: before };
    const at = ctx.now();
    const entries = ctx.repos.entries;
    const outcome =
      change.kind === 'update'
        ? await entries.update(userId, id, expectedRevision, change.fields, at, trx)
        : change.kind === 'trash'
          ? await entries.trash(userId, id, expectedRevision, at, trx, change.trashedAt ?? at)
          : await entries.restore(userId, id, expectedRevision, at, trx);
    if (outcome !== 'updated') return refusal(outcome, await entries.find(userId, id, trx));
    await ctx.repos.history.insert(versionOf(userId, before, at), trx);
    await ctx.repos.history.prune(userId, id, ctx.config.historyLimit, trx);
    await applyVaultState(ctx, trx, userId, vaultState);
    // Only an edit can grow the vault; Trash moves and restores are never refused.
    if (change.kind === 'update') await assertVaultRoom(ctx, userId, trx);
    const notice = await recordChanges(ctx, trx, userId, { entries: [id] });
    const entry = await entries.find(userId, id, trx);
    return entry ? { outcome: 'updated', entry, notice } : { outcome: 'not-found' };
  });
  if (result.outcome !== 'updated') return result;
  // Committed: now, and only now, other devices may be told.
  ctx.live.notify(userId, result.notice);
  return { outcome: 'updated', entry: result.entry };
}

/**
 * Deletes a trashed entry and its whole history for good, in one transaction. Trash is in the
 * vault state (decision 0061), so the state advances as for any other write of the set (a
 * refusal throws and purges nothing).
 */
export async function purgeEntry(
  ctx: WriteContext,
  userId: string,
  id: string,
  expectedRevision: number,
  vaultState: VaultStateWrite | undefined,
): Promise<{ outcome: 'purged'; attachmentIds: string[] } | EntryRefusal> {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const outcome = await ctx.repos.entries.purge(userId, id, expectedRevision, trx);
    if (outcome !== 'purged') return refusal(outcome, await ctx.repos.entries.find(userId, id, trx));
    await ctx.repos.history.deleteByEntry(userId, id, trx);
    // Its files go with it (decision 0071); the caller frees their content after the commit.
    const attachmentIds = await ctx.repos.attachments.idsOfEntries(userId, [id], trx);
    await ctx.repos.attachments.delete(userId, attachmentIds, trx);
    await applyVaultState(ctx, trx, userId, vaultState);
    const notice = await recordChanges(ctx, trx, userId, { purgedEntries: [{ id, revision: expectedRevision }] });
    return { outcome: 'purged' as const, notice, attachmentIds };
  });
  if (result.outcome !== 'purged') return result;
  ctx.live.notify(userId, result.notice);
  return { outcome: 'purged', attachmentIds: result.attachmentIds };
}

function refusal(outcome: 'not-found' | 'revision-mismatch' | 'wrong-state', current: StoredEntry | undefined): EntryRefusal {
  if (outcome === 'not-found' || !current) return { outcome: 'not-found' };
  return { outcome, current };
}

/** The history row of `entry` as it was before a write at `replacedAt`. */
export function versionOf(userId: string, entry: StoredEntry, replacedAt: number): EntryVersionRow {
  return {
    id: randomUUID(),
    entry_id: entry.id,
    user_id: userId,
    revision: entry.revision,
    service_name: entry.service_name,
    username: entry.username,
    password: entry.password,
    url: entry.url,
    notes: entry.notes,
    overview: entry.overview,
    details: entry.details,
    saved_at: entry.updated_at,
    replaced_at: replacedAt,
  };
}
