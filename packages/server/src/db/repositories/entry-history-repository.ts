import { padInList } from '../padded-in-list';
import type { Db, EntryHistoryTable, Executor } from '../schema';

export type EntryVersionRow = EntryHistoryTable;

/** A version as read back for its entry's owner. */
export type StoredEntryVersion = Omit<EntryVersionRow, 'id' | 'entry_id' | 'user_id'>;

/** Named, not `*` (see entries-repository.ts). */
const VERSION_COLUMNS = [
  'revision',
  'service_name',
  'username',
  'password',
  'url',
  'notes',
  'overview',
  'details',
  'saved_at',
  'replaced_at',
] as const satisfies ReadonlyArray<keyof StoredEntryVersion>;

/**
 * Earlier versions of entries, written in the transaction of the write that replaced them.
 * Every query names the user: history of another account's entry is the same as none.
 */
export function createEntryHistoryRepository(db: Db) {
  return {
    async insert(row: EntryVersionRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('entry_history').values(row).execute();
    },

    /** Newest first, at most `limit`. */
    listByEntry(userId: string, entryId: string, limit: number, ex: Executor = db): Promise<StoredEntryVersion[]> {
      return ex
        .selectFrom('entry_history')
        .select(VERSION_COLUMNS)
        .where('user_id', '=', userId)
        .where('entry_id', '=', entryId)
        .orderBy('revision', 'desc')
        .limit(limit)
        .execute();
    },

    /**
     * The versions of several entries in one query, by entry id: each newest first, at most
     * `limitPerEntry` (cut in the database by a window function, which SQLite and PostgreSQL
     * both run), so each list is what listByEntry gives for that entry. An entry with no
     * versions, or of another user, has no key.
     */
    async listByEntries(
      userId: string,
      entryIds: readonly string[],
      limitPerEntry: number,
      ex: Executor = db,
    ): Promise<Map<string, StoredEntryVersion[]>> {
      const byEntry = new Map<string, StoredEntryVersion[]>();
      if (entryIds.length === 0) return byEntry;
      const rows = await ex
        .selectFrom((eb) =>
          eb
            .selectFrom('entry_history')
            .select((inner) => [
              'entry_id',
              ...VERSION_COLUMNS,
              inner.fn
                .agg<number>('row_number')
                .over((over) => over.partitionBy('entry_id').orderBy('revision', 'desc'))
                .as('newness'),
            ])
            .where('user_id', '=', userId)
            .where('entry_id', 'in', padInList(entryIds))
            .as('ranked'),
        )
        .select(['entry_id', ...VERSION_COLUMNS])
        .where('newness', '<=', limitPerEntry)
        .orderBy('entry_id')
        .orderBy('revision', 'desc')
        .execute();
      for (const { entry_id: entryId, ...version } of rows) {
        const versions = byEntry.get(entryId);
        if (versions) versions.push(version);
        else byEntry.set(entryId, [version]);
      }
      return byEntry;
    },

    /**
     * Keeps the newest `keep` versions of one entry: deletes every version at or below the
     * revision of the (keep+1)-th newest, if there is one (revisions are unique per entry).
     */
    async prune(userId: string, entryId: string, keep: number, ex: Executor = db): Promise<void> {
      await ex
        .deleteFrom('entry_history')
        .where('user_id', '=', userId)
        .where('entry_id', '=', entryId)
        .where('revision', '<=', (eb) =>
          eb
            .selectFrom('entry_history')
            .select('revision')
            .where('user_id', '=', userId)
            .where('entry_id', '=', entryId)
            .orderBy('revision', 'desc')
            .limit(1)
            .offset(keep),
        )
        .execute();
    },

    async deleteByEntry(userId: string, entryId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('entry_history').where('user_id', '=', userId).where('entry_id', '=', entryId).execute();
    },

    /** The history of entries the purge job removed, each named with its account (ids are per account). */
    async deleteByEntries(entries: ReadonlyArray<{ id: string; user_id: string }>, ex: Executor = db): Promise<void> {
      if (entries.length === 0) return;
      await ex
        .deleteFrom('entry_history')
        .where((eb) => eb.or(entries.map((entry) => eb.and([eb('user_id', '=', entry.user_id), eb('entry_id', '=', entry.id)]))))
        .execute();
    },

    async deleteByUser(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('entry_history').where('user_id', '=', userId).execute();
    },
  };
}

export type EntryHistoryRepository = ReturnType<typeof createEntryHistoryRepository>;
