import { padInList } from '../padded-in-list';
import type { Db, Executor } from '../schema';

/**
 * The cleanup jobs' deletes (jobs/cleanup-jobs.ts). Each call deletes at most `limit` rows,
 * so one statement (one transaction) stays short whatever the backlog; the job loops.
 * Every delete re-checks its condition on the rows it deletes, so a row that stopped being
 * expired meanwhile (a code resent, an account verified) is kept.
 */
export function createExpiredRowsRepository(db: Db) {
  return {
    /** Codes past their lifetime (verify-code already refuses them). */
    async deleteExpiredCodes(now: number, limit: number, ex: Executor = db): Promise<number> {
      const result = await ex
        .deleteFrom('verification_codes')
        .where('user_id', 'in', (eb) =>
          eb.selectFrom('verification_codes').select('user_id').where('expires_at', '<=', now).limit(limit),
        )
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Pending sign-ins (a password awaiting its second factor) past their 5 minutes. */
    async deleteExpiredPendingSignIns(now: number, limit: number, ex: Executor = db): Promise<number> {
      const result = await ex
        .deleteFrom('pending_sign_ins')
        .where('id', 'in', (eb) => eb.selectFrom('pending_sign_ins').select('id').where('expires_at', '<=', now).limit(limit))
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** WebAuthn challenges never answered (registration or passkey sign-in), past their lifetime. */
    async deleteExpiredWebauthnChallenges(now: number, limit: number, ex: Executor = db): Promise<number> {
      const result = await ex
        .deleteFrom('webauthn_challenges')
        .where('id', 'in', (eb) => eb.selectFrom('webauthn_challenges').select('id').where('expires_at', '<=', now).limit(limit))
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * Key rotations never committed, past their lifetime (the commit already refuses them), with
     * their staged parts: at most `limit` rotations per call, however many parts each holds.
     * Returns how many rotations went.
     */
    async deleteExpiredKeyRotations(now: number, limit: number, ex: Executor = db): Promise<number> {
      const expired = await ex.selectFrom('key_rotations').select('id').where('expires_at', '<=', now).limit(limit).execute();
      if (expired.length === 0) return 0;
      const ids = padInList(expired.map((row) => row.id));
      await ex.deleteFrom('key_rotation_parts').where('rotation_id', 'in', ids).execute();
      const result = await ex
        .deleteFrom('key_rotations')
        .where('id', 'in', ids)
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Ids of sessions past their idle or absolute limit: no token of theirs works again. */
    async findExpiredSessions(now: number, limit: number, ex: Executor = db): Promise<string[]> {
      const rows = await ex
        .selectFrom('sessions')
        .select('id')
        .where((eb) => eb.or([eb('refresh_expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /** Those sessions and their retired refresh tokens; returns how many sessions went. */
    async deleteSessions(ids: readonly string[], ex: Executor = db): Promise<number> {
      if (ids.length === 0) return 0;
      const keys = padInList(ids);
      await ex.deleteFrom('retired_refresh_tokens').where('session_id', 'in', keys).execute();
      const result = await ex.deleteFrom('sessions').where('id', 'in', keys).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Retired refresh tokens rotated at or before `cutoff`. */
    async deleteRetiredTokens(cutoff: number, limit: number, ex: Executor = db): Promise<number> {
      const result = await ex
        .deleteFrom('retired_refresh_tokens')
        .where('token_hash', 'in', (eb) =>
          eb.selectFrom('retired_refresh_tokens').select('token_hash').where('retired_at', '<=', cutoff).limit(limit),
        )
        .where('retired_at', '<=', cutoff)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Ids of accounts never verified and created at or before `cutoff`, oldest first. */
    async findUnverifiedUsers(cutoff: number, limit: number, ex: Executor = db): Promise<string[]> {
      const rows = await ex
        .selectFrom('users')
        .select('id')
        .where('verified_at', 'is', null)
        .where('created_at', '<=', cutoff)
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /**
     * Those accounts, if still unverified, and everything of theirs (explicit deletes, as
     * identity/delete-account.ts does, whatever the foreign-key settings). The user rows go
     * first, re-checked: an account verified since it was found stays, with all of its rows.
     * Returns how many accounts went.
     */
    async deleteUnverifiedUsers(ids: readonly string[], cutoff: number, ex: Executor = db): Promise<number> {
      if (ids.length === 0) return 0;
      const deleted = await ex
        .deleteFrom('users')
        .where('id', 'in', padInList(ids))
        .where('verified_at', 'is', null)
        .where('created_at', '<=', cutoff)
        .returning('id')
        .execute();
      if (deleted.length === 0) return 0;
      const keys = padInList(deleted.map((row) => row.id));
      const sessions = ex.selectFrom('sessions').select('id').where('user_id', 'in', keys);
      await ex.deleteFrom('retired_refresh_tokens').where('session_id', 'in', sessions).execute();
      await ex.deleteFrom('sessions').where('user_id', 'in', keys).execute();
      await ex.deleteFrom('verification_codes').where('user_id', 'in', keys).execute();
      await ex.deleteFrom('entry_history').where('user_id', 'in', keys).execute();
      await ex.deleteFrom('entries').where('user_id', 'in', keys).execute();
      await ex.deleteFrom('folders').where('user_id', 'in', keys).execute();
      await ex.deleteFrom('account_documents').where('user_id', 'in', keys).execute();
      return deleted.length;
    },
  };
}

export type ExpiredRowsRepository = ReturnType<typeof createExpiredRowsRepository>;
