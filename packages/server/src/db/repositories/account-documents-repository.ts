import type { AccountDocumentsTable, Db, Executor } from '../schema';

export type StoredAccountDocument = Omit<AccountDocumentsTable, 'user_id'>;

/** Named, not `*` (see entries-repository.ts). */
const DOCUMENT_COLUMNS = ['kind', 'ciphertext', 'revision', 'updated_at'] as const satisfies ReadonlyArray<
  keyof StoredAccountDocument
>;

/**
 * One ciphertext per user and kind. A write applies only at the revision the client read
 * (0: none yet), in one statement: an update compared on the revision, or an insert the
 * primary key refuses if another write created the document first.
 */
export function createAccountDocumentsRepository(db: Db) {
  function find(userId: string, kind: string, ex: Executor = db): Promise<StoredAccountDocument | undefined> {
    return ex
      .selectFrom('account_documents')
      .select(DOCUMENT_COLUMNS)
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .executeTakeFirst();
  }

  return {
    find,

    /** Inserts revision 1. Throws a unique violation if the document exists (see isUniqueViolation). */
    async insert(userId: string, kind: string, ciphertext: string, now: number, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('account_documents')
        .values({ user_id: userId, kind, ciphertext, revision: 1, updated_at: now })
        .execute();
    },

    /** Replaces the document only while it is at `expectedRevision`; false when it is not. */
    async replace(
      userId: string,
      kind: string,
      expectedRevision: number,
      ciphertext: string,
      now: number,
      ex: Executor = db,
    ): Promise<boolean> {
      const result = await ex
        .updateTable('account_documents')
        .set((eb) => ({ ciphertext, revision: eb('revision', '+', 1), updated_at: now }))
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('revision', '=', expectedRevision)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteByUser(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('account_documents').where('user_id', '=', userId).execute();
    },
  };
}

export type AccountDocumentsRepository = ReturnType<typeof createAccountDocumentsRepository>;
