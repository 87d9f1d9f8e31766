import type { Insertable, Selectable } from 'kysely';
import type { Db, Executor, ShareLinksTable } from '../schema';

export type ShareLinkRow = Selectable<ShareLinksTable>;
export type ShareLinkSummary = Omit<ShareLinkRow, 'ciphertext' | 'key_check'>;

const SUMMARY_COLUMNS = [
  'id',
  'user_id',
  'password_salt',
  'max_openings',
  'openings_left',
  'delete_after_opening',
  'created_at',
  'expires_at',
  'owner_label',
] as const;

/** Share link rows (decision 0078). Openings are counted only by `takeOpening`'s single statement. */
export function createShareLinksRepository(db: Db) {
  return {
    /** False when the id is taken (by anyone): the browser made it, and must make another. */
    async insert(row: Insertable<ShareLinksTable>, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .insertInto('share_links')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    findSummary(id: string, ex: Executor = db): Promise<ShareLinkSummary | undefined> {
      return ex.selectFrom('share_links').select(SUMMARY_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** The owner's links not yet expired at `now` (used-up ones too), newest first. */
    listLive(userId: string, now: number, ex: Executor = db): Promise<ShareLinkSummary[]> {
      return ex
        .selectFrom('share_links')
        .select(SUMMARY_COLUMNS)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    async countLive(userId: string, now: number, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('share_links')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * Uses one opening, atomically: one `UPDATE ... WHERE openings_left > 0 AND expires_at > now
     * RETURNING`, so of any number of concurrent openings (on any number of server processes
     * sharing the database) exactly `openings_left` succeed. Undefined when none is left, the
     * link expired, or it does not exist.
     */
    takeOpening(id: string, now: number, ex: Executor = db): Promise<ShareLinkRow | undefined> {
      return ex
        .updateTable('share_links')
        .set((eb) => ({ openings_left: eb('openings_left', '-', 1) }))
        .where('id', '=', id)
        .where('openings_left', '>', 0)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },

    /** Deletes a link whose last opening was just used, when its owner asked for that. */
    async deleteUsedUp(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('share_links').where('id', '=', id).where('openings_left', '=', 0).execute();
    },

    /** The owner revokes a link; false when they have none with that id. */
    async deleteOwned(userId: string, id: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('share_links').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** The owner's label replaced; false when they have no link with that id. */
    async relabelOwned(userId: string, id: string, label: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('share_links')
        .set({ owner_label: label })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Up to `limit` links expired at `now`, deleted; the count. */
    async deleteExpired(now: number, limit: number, ex: Executor = db): Promise<number> {
      const result = await ex
        .deleteFrom('share_links')
        .where('id', 'in', (eb) => eb.selectFrom('share_links').select('id').where('expires_at', '<=', now).limit(limit))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type ShareLinksRepository = ReturnType<typeof createShareLinksRepository>;
