import { padInList } from '../padded-in-list';
import type { Db, EntriesTable, Executor } from '../schema';
import { whyNotWritten, type WriteOutcome } from './write-outcome';

export type EntryRow = EntriesTable;

/** An entry as read back: the row without its owner, whom every query already names. */
export type StoredEntry = Omit<EntryRow, 'user_id'>;

/**
 * Named, not `*`: on PostgreSQL a prepared `select *` fails once a migration adds a column
 * (see create-database.ts), and the owner's id is already known to every caller.
 */
export const ENTRY_COLUMNS = [
  'id',
  'service_name',
  'username',
  'password',
  'url',
  'notes',
  'overview',
  'details',
  'revision',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies ReadonlyArray<keyof StoredEntry>;

/** The ciphertexts of an entry: what an edit replaces and what history keeps. */
export interface EntryFields {
  service_name: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  overview: string | null;
  details: string | null;
}

export type UpdateOutcome = WriteOutcome<'updated'>;
export type PurgeOutcome = WriteOutcome<'purged'>;

/** Which entries a write may touch: edits apply in and out of Trash, moves only one way. */
type Where = 'anywhere' | 'live' | 'trashed';

/**
 * Every query is scoped by user id: an entry of another account is the same as no entry.
 * Writes to an existing entry compare and swap on its revision in one statement, so two
 * writers based on the same version cannot both apply; callers run them in a transaction
 * with the history row and the vault revision bump.
 */
export function createEntriesRepository(db: Db) {
  function find(userId: string, id: string, ex: Executor = db): Promise<StoredEntry | undefined> {
    return ex.selectFrom('entries').select(ENTRY_COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  /** Sets `changes`, bumps the revision and stamps `now`, only at `expectedRevision` and `where`. */
  async function swap(
    userId: string,
    id: string,
    expectedRevision: number,
    where: Where,
    changes: Partial<EntryFields> & { deleted_at?: number | null },
    now: number,
    ex: Executor,
  ): Promise<UpdateOutcome> {
    let query = ex
      .updateTable('entries')
      .set((eb) => ({ ...changes, revision: eb('revision', '+', 1), updated_at: now }))
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('revision', '=', expectedRevision);
    if (where === 'live') query = query.where('deleted_at', 'is', null);
    if (where === 'trashed') query = query.where('deleted_at', 'is not', null);
    const result = await query.executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return 'updated';
    return whyNotWritten(await find(userId, id, ex), expectedRevision);
  }

  return {
    find,

    /** Which of `ids` (lower-case) name entries of this user, live or trashed; in no order. */
    async findIds(userId: string, ids: readonly string[], ex: Executor = db): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await ex
        .selectFrom('entries')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', 'in', padInList(ids))
        .execute();
      return rows.map((row) => row.id);
    },

    /** Live and trashed entries (Trash is a view of the same list), oldest first. */
    listByUser(userId: string, ex: Executor = db): Promise<StoredEntry[]> {
      return ex
        .selectFrom('entries')
        .select(ENTRY_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },

    /**
     * One page of `listByUser`'s order, after the entry `after` (keyset paging on the
     * (user_id, created_at, id) index): a large vault is read a page at a time, so other
     * requests run between pages instead of waiting for one long synchronous SQLite read.
     */
    listPageByUser(userId: string, after: { createdAt: number; id: string } | undefined, limit: number, ex: Executor = db) {
      let query = ex.selectFrom('entries').select(ENTRY_COLUMNS).where('user_id', '=', userId);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
          ]),
        );
      }
      return query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
    },

    async insert(row: EntryRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('entries').values(row).execute();
    },

    /** Replaces ciphertexts (fields left out are kept); a trashed entry stays in Trash. */
    update(userId: string, id: string, expectedRevision: number, fields: Partial<EntryFields>, now: number, ex: Executor = db) {
      return swap(userId, id, expectedRevision, 'anywhere', fields, now, ex);
    },

    /** Moves a live entry to Trash, in Trash since `trashedAt` (default: now); `wrong-state` if it is there already. */
    trash(userId: string, id: string, expectedRevision: number, now: number, ex: Executor = db, trashedAt = now) {
      return swap(userId, id, expectedRevision, 'live', { deleted_at: trashedAt }, now, ex);
    },

    /** Brings a trashed entry back; `wrong-state` if it is live. */
    restore(userId: string, id: string, expectedRevision: number, now: number, ex: Executor = db) {
      return swap(userId, id, expectedRevision, 'trashed', { deleted_at: null }, now, ex);
    },

    /** Deletes a trashed entry for good (its history is the caller's, in the same transaction). */
    async purge(userId: string, id: string, expectedRevision: number, ex: Executor = db): Promise<PurgeOutcome> {
      const result = await ex
        .deleteFrom('entries')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('revision', '=', expectedRevision)
        .where('deleted_at', 'is not', null)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 1) return 'purged';
      return whyNotWritten(await find(userId, id, ex), expectedRevision);
    },

    /**
     * Deletes up to `limit` entries trashed before `cutoff`, of any user whose vault has no
     * integrity state, and names them. A vault with a state is left alone: its Trash is in the
     * state the browser sealed, which the server cannot update, so its browser purges it with
     * a write of its own (decision 0061). One statement: a row restored or purged meanwhile by
     * another transaction is skipped, so several processes may run it at once.
     */
    deleteTrashedBefore(
      cutoff: number,
      limit: number,
      ex: Executor = db,
    ): Promise<Array<{ id: string; user_id: string; revision: number }>> {
      return (
        ex
          .deleteFrom('entries')
          // By (user_id, id): an id names an entry only within its account (migration 0011).
          .where((eb) =>
            eb(
              eb.refTuple('user_id', 'id'),
              'in',
              eb
                .selectFrom('entries')
                .select(['user_id', 'id'])
                .where('deleted_at', '<', cutoff)
                .where('user_id', 'in', eb.selectFrom('users').select('id').where('vault_state_counter', '=', 0))
                .limit(limit)
                .$asTuple('user_id', 'id'),
            ),
          )
          .where('deleted_at', '<', cutoff)
          .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('vault_state_counter', '=', 0))
          .returning(['id', 'user_id', 'revision'])
          .execute()
      );
    },

    /** One statement for a whole import batch call (at most ENTRY_BATCH_MAX_ENTRIES rows). */
    async insertMany(rows: readonly EntryRow[], ex: Executor = db): Promise<void> {
      if (rows.length > 0)
        await ex
          .insertInto('entries')
          .values([...rows])
          .execute();
    },

    /** Every entry of one import of this user, live or trashed. */
    listByImportBatch(userId: string, batchId: string, ex: Executor = db): Promise<StoredEntry[]> {
      return ex
        .selectFrom('entries')
        .select(ENTRY_COLUMNS)
        .where('user_id', '=', userId)
        .where('import_batch', '=', batchId)
        .execute();
    },

    /** Deletes the entries of one import still at revision 1 (never changed since): they have no history. Names them. */
    async deleteUntouchedOfImportBatch(userId: string, batchId: string, ex: Executor = db): Promise<string[]> {
      const rows = await ex
        .deleteFrom('entries')
        .where('user_id', '=', userId)
        .where('import_batch', '=', batchId)
        .where('revision', '=', 1)
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },

    async deleteByUser(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('entries').where('user_id', '=', userId).execute();
    },
  };
}

export type EntriesRepository = ReturnType<typeof createEntriesRepository>;
