import type { Selectable } from 'kysely';
import type { Db, Executor, PendingSignInsTable } from '../schema';

export type PendingSignInRow = Selectable<PendingSignInsTable>;

/** What Profile and the admin list need of a credential; S2's webauthn repository owns the rest. */
export interface CredentialSummaryRow {
  id: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
  unlock_key: string | null;
  backed_up: number;
}

/**
 * TOTP columns, recovery codes, pending sign-ins and the two-factor epoch. Every write that
 * must happen once (a TOTP step, a recovery code, a pending sign-in's failure mail) is one
 * conditional UPDATE whose row count says whether this caller won, so two concurrent uses of
 * one code give one success on both databases.
 */
export function createTwoFactorRepository(db: Db) {
  return {
    async raiseEpoch(userId: string, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('users')
        .set((eb) => ({ two_factor_epoch: eb('two_factor_epoch', '+', 1) }))
        .where('id', '=', userId)
        .execute();
    },

    async setPendingTotp(userId: string, sealed: string, expiresAt: number, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('users')
        .set({ totp_pending_secret: sealed, totp_pending_expires_at: expiresAt })
        .where('id', '=', userId)
        .execute();
    },

    /** Turns TOTP on with the confirmed seed; the confirming code's step counts as used. */
    async enableTotp(userId: string, sealed: string, step: number, now: number, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('users')
        .set({
          totp_secret: sealed,
          totp_enabled_at: now,
          totp_last_step: step,
          totp_pending_secret: null,
          totp_pending_expires_at: null,
        })
        .where('id', '=', userId)
        .execute();
    },

    async disableTotp(userId: string, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('users')
        .set({
          totp_secret: null,
          totp_enabled_at: null,
          totp_last_step: null,
          totp_pending_secret: null,
          totp_pending_expires_at: null,
        })
        .where('id', '=', userId)
        .execute();
    },

    /** Records `step` as used only if it is later than the last one used; false: a replay (or a race lost). */
    async claimTotpStep(userId: string, step: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where('totp_secret', 'is not', null)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async replaceRecoveryCodes(userId: string, codes: { id: string; hash: string }[], now: number, ex: Executor = db) {
      await ex.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await ex
        .insertInto('recovery_codes')
        .values(codes.map((code) => ({ id: code.id, user_id: userId, code_hash: code.hash, created_at: now, used_at: null })))
        .execute();
    },

    async deleteRecoveryCodes(userId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    },

    /** Every code of the user, used or not: "has codes" means a set was made. */
    async countRecoveryCodes(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async countUnusedRecoveryCodes(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Marks the user's unused code with this hash as used; false when there is none (wrong, used, or a race lost). */
    async useRecoveryCode(userId: string, hash: string, now: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('recovery_codes')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    listCredentialSummaries(userId: string, ex: Executor = db): Promise<CredentialSummaryRow[]> {
      return ex
        .selectFrom('webauthn_credentials')
        .select(['id', 'name', 'created_at', 'last_used_at', 'unlock_key', 'backed_up'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async hasCredentials(userId: string, ex: Executor = db): Promise<boolean> {
      const row = await ex
        .selectFrom('webauthn_credentials')
        .select('id')
        .where('user_id', '=', userId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async insertPendingSignIn(
      row: Omit<PendingSignInRow, 'failures' | 'failure_mailed' | 'webauthn_challenge'>,
      ex: Executor = db,
    ) {
      await ex.insertInto('pending_sign_ins').values(row).execute();
    },

    findPendingByTokenHash(tokenHash: string, ex: Executor = db): Promise<PendingSignInRow | undefined> {
      return ex.selectFrom('pending_sign_ins').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    /** One more failure; returns the count after it. */
    async addPendingFailure(id: string, ex: Executor = db): Promise<number> {
      await ex
        .updateTable('pending_sign_ins')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('id', '=', id)
        .execute();
      const row = await ex.selectFrom('pending_sign_ins').select('failures').where('id', '=', id).executeTakeFirst();
      return row?.failures ?? Number.MAX_SAFE_INTEGER;
    },

    /** True for exactly one caller per pending sign-in: the one that must send the failure mail. */
    async claimFailureMail(id: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('pending_sign_ins')
        .set({ failure_mailed: 1 })
        .where('id', '=', id)
        .where('failure_mailed', '=', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async setPendingChallenge(id: string, challenge: string, ex: Executor = db): Promise<void> {
      await ex.updateTable('pending_sign_ins').set({ webauthn_challenge: challenge }).where('id', '=', id).execute();
    },

    /** True when this call deleted it: of two racing completions, exactly one gets true. */
    async deletePendingSignIn(id: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('pending_sign_ins').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** The user's pending sign-ins past their lifetime: nothing can complete them any more. */
    async deleteExpiredPendingSignInsOf(userId: string, now: number, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('pending_sign_ins').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
    },
  };
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
