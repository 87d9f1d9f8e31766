import { PostgresAdapter, sql } from 'kysely';
import type { AttachmentsTable, Db, Executor } from '../schema';

export type AttachmentRow = Omit<AttachmentsTable, 'received'> & { received: number };

/**
 * Attachment rows by user: another account's file is the same as none. Their content lives in
 * an AttachmentStore (attachments/); a row is its index and its upload's progress.
 */
export function createAttachmentsRepository(db: Db) {
  const rows = (ex: Executor) => ex.selectFrom('attachments').selectAll();

  return {
    find(userId: string, id: string, ex: Executor = db): Promise<AttachmentRow | undefined> {
      return rows(ex).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    },

    /** The entry's finished files, oldest first. */
    listFinished(userId: string, entryId: string, ex: Executor = db): Promise<AttachmentRow[]> {
      return rows(ex)
        .where('user_id', '=', userId)
        .where('entry_id', '=', entryId)
        .where('finished_at', 'is not', null)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },

    /** Every file of the account, uploads under way included, by entry then creation. */
    listOfUser(userId: string, ex: Executor = db): Promise<AttachmentRow[]> {
      return rows(ex).where('user_id', '=', userId).orderBy('entry_id').orderBy('created_at').orderBy('id').execute();
    },

    /**
     * The account's key epoch, the users row held against a key rotation's commit until `ex`
     * ends (PostgreSQL: FOR SHARE; SQLite runs one transaction at a time): a commit either
     * finished first (the new epoch is read here) or waits and then sees this file.
     */
    async lockedKeyEpoch(userId: string, ex: Executor): Promise<number | undefined> {
      let query = ex.selectFrom('users').select('key_epoch').where('id', '=', userId);
      if (ex.getExecutor().adapter instanceof PostgresAdapter) query = query.forShare();
      const row = await query.executeTakeFirst();
      return row === undefined ? undefined : Number(row.key_epoch);
    },

    /**
     * Sealed bytes the account's rows announce, uploads under way included (they hold room): its
     * files and the files of
     * its share links (decision 0081), which count against the same limit.
     */
    async usedBytes(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('attachments')
        .select(sql<string | number | null>`sum(size)`.as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const shared = await ex
        .selectFrom('share_links')
        .select(sql<string | number | null>`sum(file_size)`.as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.total ?? 0) + Number(shared?.total ?? 0);
    },

    async insert(row: Omit<AttachmentRow, 'received'>, ex: Executor = db): Promise<void> {
      await ex.insertInto('attachments').values(row).execute();
    },

    /** Advances `received` from `from` to `to` only if no other request moved it meanwhile. */
    async advance(userId: string, id: string, from: number, to: number, now: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('attachments')
        .set({ received: to, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('received', '=', from)
        .where('finished_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async finish(userId: string, id: string, now: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('attachments')
        .set({ finished_at: now, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('finished_at', 'is', null)
        .where(sql<boolean>`received = size`)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async rename(userId: string, id: string, metadata: string, now: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('attachments')
        .set({ metadata, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('finished_at', 'is not', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Unfinished uploads of the account started before `before`: abandoned, their room given back. */
    async staleUploads(userId: string, before: number, ex: Executor = db): Promise<string[]> {
      const found = await ex
        .selectFrom('attachments')
        .select('id')
        .where('user_id', '=', userId)
        .where('finished_at', 'is', null)
        .where('updated_at', '<', before)
        .execute();
      return found.map((row) => row.id);
    },

    /** The ids of the files of these entries (of one account), finished or not. */
    async idsOfEntries(userId: string, entryIds: readonly string[], ex: Executor = db): Promise<string[]> {
      if (entryIds.length === 0) return [];
      const found = await ex
        .selectFrom('attachments')
        .select('id')
        .where('user_id', '=', userId)
        .where('entry_id', 'in', entryIds)
        .execute();
      return found.map((row) => row.id);
    },

    async idsOfUser(userId: string, ex: Executor = db): Promise<string[]> {
      const found = await ex.selectFrom('attachments').select('id').where('user_id', '=', userId).execute();
      return found.map((row) => row.id);
    },

    /** Deletes rows and their PostgreSQL chunks (explicitly, whatever the foreign-key settings). */
    async delete(userId: string, ids: readonly string[], ex: Executor = db): Promise<void> {
      if (ids.length === 0) return;
      await ex.deleteFrom('attachment_chunks').where('user_id', '=', userId).where('attachment_id', 'in', ids).execute();
      await ex.deleteFrom('attachments').where('user_id', '=', userId).where('id', 'in', ids).execute();
    },
  };
}
