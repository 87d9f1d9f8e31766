import type { Db, Executor, FoldersTable } from '../schema';
import { whyNotWritten, type WriteOutcome } from './write-outcome';

export type FolderRow = FoldersTable;
export type StoredFolder = Omit<FolderRow, 'user_id'>;

/** Named, not `*` (see entries-repository.ts). */
export const FOLDER_COLUMNS = ['id', 'name', 'revision', 'created_at', 'updated_at'] as const satisfies ReadonlyArray<
  keyof StoredFolder
>;

/**
 * Folders by user: another account's folder is the same as none. Renames and deletes
 * compare and swap on the revision in one statement, like entry writes.
 */
export function createFoldersRepository(db: Db) {
  function find(userId: string, id: string, ex: Executor = db): Promise<StoredFolder | undefined> {
    return ex.selectFrom('folders').select(FOLDER_COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  return {
    find,

    listByUser(userId: string, ex: Executor = db): Promise<StoredFolder[]> {
      return ex
        .selectFrom('folders')
        .select(FOLDER_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },

    async insert(row: FolderRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('folders').values(row).execute();
    },

    async rename(
      userId: string,
      id: string,
      expectedRevision: number,
      name: string,
      now: number,
      ex: Executor = db,
    ): Promise<WriteOutcome<'updated'>> {
      const result = await ex
        .updateTable('folders')
        .set((eb) => ({ name, revision: eb('revision', '+', 1), updated_at: now }))
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('revision', '=', expectedRevision)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return 'updated';
      return whyNotWritten(await find(userId, id, ex), expectedRevision);
    },

    async delete(userId: string, id: string, expectedRevision: number, ex: Executor = db): Promise<WriteOutcome<'deleted'>> {
      const result = await ex
        .deleteFrom('folders')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('revision', '=', expectedRevision)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 1) return 'deleted';
      return whyNotWritten(await find(userId, id, ex), expectedRevision);
    },

    async deleteByUser(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('folders').where('user_id', '=', userId).execute();
    },
  };
}

export type FoldersRepository = ReturnType<typeof createFoldersRepository>;
