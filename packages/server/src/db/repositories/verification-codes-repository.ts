import type { Db, Executor, VerificationCodesTable } from '../schema';

export type VerificationCodeRow = VerificationCodesTable;

/** One pending code per user: a new one replaces the old (and its attempt count). */
export function createVerificationCodesRepository(db: Db) {
  return {
    find(userId: string, ex: Executor = db): Promise<VerificationCodeRow | undefined> {
      return ex.selectFrom('verification_codes').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    async replace(row: VerificationCodeRow, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('verification_codes')
        .values(row)
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            code_hash: row.code_hash,
            expires_at: row.expires_at,
            attempts: row.attempts,
            sent_at: row.sent_at,
          }),
        )
        .execute();
    },

    /**
     * Counts one try, atomically, if the budget allows it; false when `maxAttempts` tries were
     * already made (or there is no code). Concurrent tries each take their own slot.
     */
    async claimAttempt(userId: string, maxAttempts: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('verification_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('user_id', '=', userId)
        .where('attempts', '<', maxAttempts)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async delete(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('verification_codes').where('user_id', '=', userId).execute();
    },
  };
}

export type VerificationCodesRepository = ReturnType<typeof createVerificationCodesRepository>;
