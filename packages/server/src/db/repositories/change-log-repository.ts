import type { Db, Executor, VaultTombstonesTable } from '../schema';
import { padInList } from '../padded-in-list';
import { ENTRY_COLUMNS, type StoredEntry } from './entries-repository';
import { FOLDER_COLUMNS, type StoredFolder } from './folders-repository';

export type TombstoneKind = VaultTombstonesTable['kind'];
export interface Tombstone {
  id: string;
  revision: number;
}

/** Ids stamped per statement: far below both databases' parameter caps. */
const STAMP_CHUNK = 500;

/**
 * The change log of decision 0066, by user. The account's change sequence is
 * `users.vault_revision`, which every write of the vault bumps in its transaction (the bump
 * takes the users row's lock until commit, so one account's changes commit in sequence order
 * and a reader never sees change N + 1 without change N). A write then stamps the rows it
 * touched with that value, and records a tombstone for each one it deleted for good.
 */
export function createChangeLogRepository(db: Db) {
  /** No cursor below `to` is answered any more (key rotation, pruned tombstones). */
  async function raiseFloor(userId: string, to: number, ex: Executor = db): Promise<void> {
    await ex.updateTable('users').set({ change_floor: to }).where('id', '=', userId).where('change_floor', '<', to).execute();
  }

  return {
    raiseFloor,

    /** The vault revision as this transaction sees it: after its own bump. */
    async currentSeq(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex.selectFrom('users').select('vault_revision').where('id', '=', userId).executeTakeFirstOrThrow();
      return Number(row.vault_revision);
    },

    async stamp(table: 'entries' | 'folders', userId: string, ids: readonly string[], seq: number, ex: Executor = db) {
      for (let at = 0; at < ids.length; at += STAMP_CHUNK) {
        await ex
          .updateTable(table)
          .set({ change_seq: seq })
          .where('user_id', '=', userId)
          .where('id', 'in', padInList(ids.slice(at, at + STAMP_CHUNK)))
          .execute();
      }
    },

    /** Records each row deleted for good; an id deleted before (and made again) takes the new one. */
    async tombstone(
      userId: string,
      kind: TombstoneKind,
      gone: readonly Tombstone[],
      seq: number,
      at: number,
      ex: Executor = db,
    ): Promise<void> {
      for (let from = 0; from < gone.length; from += STAMP_CHUNK) {
        const rows = gone.slice(from, from + STAMP_CHUNK).map((row) => ({
          user_id: userId,
          kind,
          id: row.id,
          revision: row.revision,
          change_seq: seq,
          purged_at: at,
        }));
        await ex
          .insertInto('vault_tombstones')
          .values(rows)
          .onConflict((oc) =>
            oc.columns(['user_id', 'kind', 'id']).doUpdateSet((eb) => ({
              revision: eb.ref('excluded.revision'),
              change_seq: eb.ref('excluded.change_seq'),
              purged_at: eb.ref('excluded.purged_at'),
            })),
          )
          .execute();
      }
    },

    /** The cursor, its floor and the vault state of the account, read together. */
    async position(userId: string, ex: Executor = db) {
      const row = await ex
        .selectFrom('users')
        .select(['vault_revision', 'change_floor', 'vault_state'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      return { cursor: Number(row.vault_revision), floor: Number(row.change_floor), vaultState: row.vault_state };
    },

    /** Entries written after `since` (0: every entry), in the list's order. */
    entriesSince(userId: string, since: number, ex: Executor = db): Promise<StoredEntry[]> {
      let query = ex.selectFrom('entries').select(ENTRY_COLUMNS).where('user_id', '=', userId);
      if (since > 0) query = query.where('change_seq', '>', since);
      return query.orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    },

    foldersSince(userId: string, since: number, ex: Executor = db): Promise<StoredFolder[]> {
      let query = ex.selectFrom('folders').select(FOLDER_COLUMNS).where('user_id', '=', userId);
      if (since > 0) query = query.where('change_seq', '>', since);
      return query.orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    },

    async tombstonesSince(userId: string, since: number, ex: Executor = db) {
      const rows = await ex
        .selectFrom('vault_tombstones')
        .select(['kind', 'id', 'revision'])
        .where('user_id', '=', userId)
        .where('change_seq', '>', since)
        .orderBy('change_seq', 'asc')
        .execute();
      const of = (kind: TombstoneKind) =>
        rows.filter((row) => row.kind === kind).map((row) => ({ id: row.id, revision: Number(row.revision) }));
      return { entries: of('entry'), folders: of('folder') };
    },

    /**
     * Deletes up to `limit` tombstones made before `cutoff`, and raises each owner's floor to
     * the newest change deleted: a cursor from before it can no longer learn of that deletion.
     * One transaction per call (the caller's). Returns how many were deleted.
     */
    async pruneBefore(cutoff: number, limit: number, ex: Executor = db): Promise<number> {
      const rows = await ex
        .selectFrom('vault_tombstones')
        .select(['user_id', 'kind', 'id', 'change_seq'])
        .where('purged_at', '<', cutoff)
        .orderBy('purged_at', 'asc')
        .limit(limit)
        .execute();
      const floors = new Map<string, number>();
      for (const row of rows) floors.set(row.user_id, Math.max(floors.get(row.user_id) ?? 0, Number(row.change_seq)));
      for (const [userId, seq] of floors) await raiseFloor(userId, seq, ex);
      for (const row of rows) {
        await ex
          .deleteFrom('vault_tombstones')
          .where('user_id', '=', row.user_id)
          .where('kind', '=', row.kind)
          .where('id', '=', row.id)
          .where('change_seq', '=', row.change_seq)
          .execute();
      }
      return rows.length;
    },

    async deleteByUser(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('vault_tombstones').where('user_id', '=', userId).execute();
    },
  };
}

export type ChangeLogRepository = ReturnType<typeof createChangeLogRepository>;
