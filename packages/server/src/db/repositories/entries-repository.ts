import type { Db, EntriesTable, Executor } from '../schema';

export type EntryRow = EntriesTable;

/** An entry as read back: the row without its owner, whom every query already names. */
export type StoredEntry = Omit<EntryRow, 'user_id'>;

/**
 * Named, not `*`: on PostgreSQL a prepared `select *` fails once a migration adds a column
 * (see create-database.ts), and the owner's id is already known to every caller.
 */
const ENTRY_COLUMNS = [
  'id',
  'service_name',
  'username',
  'password',
  'url',
  'notes',
  'revision',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof StoredEntry>;

export interface EntryFields {
  service_name: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
}

export type UpdateOutcome = 'updated' | 'not-found' | 'revision-mismatch';

/** Every query is scoped by user id: an entry of another account is the same as no entry. */
export function createEntriesRepository(db: Db) {
  function find(userId: string, id: string, ex: Executor = db): Promise<StoredEntry | undefined> {
    return ex.selectFrom('entries').select(ENTRY_COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  return {
    find,

    listByUser(userId: string, ex: Executor = db): Promise<StoredEntry[]> {
      return ex
        .selectFrom('entries')
        .select(ENTRY_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },

    async insert(row: EntryRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('entries').values(row).execute();
    },

    /** Bumps the revision; with `expectedRevision`, applies only if the stored one matches. */
    async update(
      userId: string,
      id: string,
      fields: Partial<EntryFields>,
      expectedRevision: number | undefined,
      now: number,
      ex: Executor = db,
    ): Promise<UpdateOutcome> {
      let query = ex
        .updateTable('entries')
        .set((eb) => ({ ...fields, revision: eb('revision', '+', 1), updated_at: now }))
        .where('user_id', '=', userId)
        .where('id', '=', id);
      if (expectedRevision !== undefined) query = query.where('revision', '=', expectedRevision);
      const result = await query.executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return 'updated';
      if (expectedRevision === undefined) return 'not-found';
      return (await find(userId, id, ex)) ? 'revision-mismatch' : 'not-found';
    },

    async delete(userId: string, id: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('entries').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async deleteByUser(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('entries').where('user_id', '=', userId).execute();
    },
  };
}

export type EntriesRepository = ReturnType<typeof createEntriesRepository>;
