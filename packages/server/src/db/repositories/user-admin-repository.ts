import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Db, Executor } from '../schema';

/** What the operator sees of an account: no key material, no hashes, nothing of the vault. */
export interface AdminUserRow {
  id: string;
  username: string;
  email: string;
  created_at: number;
  last_seen_at: number | null;
  verified_at: number | null;
  disabled_at: number | null;
  /** Whether TOTP is on (never the seed) and whether any security key or passkey is registered. */
  totp_on: number | boolean;
  has_webauthn: number | boolean;
}

const ADMIN_USER_COLUMNS = ['id', 'username', 'email', 'created_at', 'last_seen_at', 'verified_at', 'disabled_at'] as const;

/** Which factors an account has, as flags: the sealed seed itself never leaves the table. */
function adminColumns(eb: ExpressionBuilder<Database, 'users'>) {
  return [
    ...ADMIN_USER_COLUMNS,
    sql<number>`case when users.totp_secret is null then 0 else 1 end`.as('totp_on'),
    eb
      .exists(
        eb
          .selectFrom('webauthn_credentials')
          .select('webauthn_credentials.id')
          .whereRef('webauthn_credentials.user_id', '=', 'users.id'),
      )
      .as('has_webauthn'),
  ] as const;
}

/** Account administration (lockit-admin and the admin page). Named columns only. */
export function createUserAdminRepository(db: Db) {
  return {
    list(ex: Executor = db): Promise<AdminUserRow[]> {
      return ex.selectFrom('users').select(adminColumns).orderBy('created_at').orderBy('id').execute();
    },

    findById(id: string, ex: Executor = db): Promise<AdminUserRow | undefined> {
      return ex.selectFrom('users').select(adminColumns).where('id', '=', id).executeTakeFirst();
    },

    /** By folded username or folded e-mail (both unique). */
    findByFoldedName(folded: string, ex: Executor = db): Promise<AdminUserRow | undefined> {
      return ex
        .selectFrom('users')
        .select(adminColumns)
        .where((eb) => eb.or([eb('username_folded', '=', folded), eb('email_folded', '=', folded)]))
        .executeTakeFirst();
    },

    /** Sets or clears `disabled_at`; true when the row changed (it was not already so). */
    async setDisabled(id: string, disabledAt: number | null, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('users')
        .set({ disabled_at: disabledAt })
        .where('id', '=', id)
        .where('disabled_at', disabledAt === null ? 'is not' : 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async countSessions(userId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('sessions')
        .select(sql<number>`count(*)`.as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Account counts for the diagnostics: totals only. */
    async totals(ex: Executor = db): Promise<{ users: number; unverified: number; disabled: number }> {
      const row = await ex
        .selectFrom('users')
        .select([
          sql<number>`count(*)`.as('users'),
          sql<number>`count(*) - count(verified_at)`.as('unverified'),
          sql<number>`count(disabled_at)`.as('disabled'),
        ])
        .executeTakeFirstOrThrow();
      return { users: Number(row.users), unverified: Number(row.unverified), disabled: Number(row.disabled) };
    },
  };
}

export type UserAdminRepository = ReturnType<typeof createUserAdminRepository>;
