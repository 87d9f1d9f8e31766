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
  'file_size',
  'file_received',
  'file_finished_at',
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
      return (
        ex
          .updateTable('share_links')
          .set((eb) => ({ openings_left: eb('openings_left', '-', 1) }))
          .where('id', '=', id)
          .where('openings_left', '>', 0)
          .where('expires_at', '>', now)
          // A shared file opens only once all of it arrived.
          .where((eb) => eb.or([eb('file_size', 'is', null), eb('file_finished_at', 'is not', null)]))
          .returningAll()
          .executeTakeFirst()
      );
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

    /** Up to `limit` links expired at `now`, deleted; each one's owner and id (to free a file's bytes). */
    async deleteExpired(now: number, limit: number, ex: Executor = db): Promise<{ userId: string; id: string }[]> {
      const rows = await ex
        .selectFrom('share_links')
        .select(['id', 'user_id'])
        .where('expires_at', '<=', now)
        .limit(limit)
        .execute();
      if (rows.length === 0) return [];
      const deleted = await ex
        .deleteFrom('share_links')
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .where('expires_at', '<=', now)
        .returning(['id', 'user_id'])
        .execute();
      return deleted.map((row) => ({ userId: row.user_id, id: row.id }));
    },

    /** The account's file links whose upload was started before `before` and never finished, deleted; their ids. */
    async deleteStaleUploads(userId: string, before: number, ex: Executor = db): Promise<string[]> {
      const rows = await ex
        .deleteFrom('share_links')
        .where('user_id', '=', userId)
        .where('file_size', 'is not', null)
        .where('file_finished_at', 'is', null)
        .where('created_at', '<', before)
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },

    /** Every link of the account deleted (account deletion); their ids. */
    async deleteByUser(userId: string, ex: Executor = db): Promise<string[]> {
      const rows = await ex.deleteFrom('share_links').where('user_id', '=', userId).returning('id').execute();
      return rows.map((row) => row.id);
    },

    /**
     * Advances a shared file's upload from exactly `from` to `to` bytes, for its owner, while it
     * is under way; false when it moved meanwhile, is finished or is not theirs.
     */
    async advanceFile(userId: string, id: string, from: number, to: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('share_links')
        .set({ file_received: to })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('file_size', 'is not', null)
        .where('file_received', '=', from)
        .where('file_finished_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Ends a shared file's upload whose every byte arrived; false otherwise. */
    async finishFile(userId: string, id: string, now: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('share_links')
        .set({ file_finished_at: now })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('file_size', 'is not', null)
        .where('file_finished_at', 'is', null)
        .where((eb) => eb('file_received', '=', eb.ref('file_size')))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * A used-up "delete after opening" file link lives on only until `until`, long enough for the
     * last opening to fetch its file; the expiry job deletes it then if the download did not.
     */
    async expireBy(id: string, until: number, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('share_links')
        .set({ expires_at: until })
        .where('id', '=', id)
        .where('expires_at', '>', until)
        .execute();
    },
  };
}

export type ShareLinksRepository = ReturnType<typeof createShareLinksRepository>;
