import { randomUUID } from 'node:crypto';
import { hashToken, newToken } from '../auth/tokens';
import type { Db } from '../db/schema';

/** An admin session ends after this long without a request… */
export const ADMIN_IDLE_MS = 15 * 60_000;
/** …and this long after sign-in, whatever happens. */
export const ADMIN_ABSOLUTE_MS = 60 * 60_000;
/** `last_used_at` is written at most this often, not on every admin request. */
const TOUCH_INTERVAL_MS = 10_000;

export interface OpenedAdminSession {
  token: string;
  createdAt: number;
  expiresAt: number;
}

export interface AdminSessionLimits {
  /** The absolute end. */
  expiresAt: number;
}

/** Deletes admin sessions idle too long or past their end at `at`; returns how many. */
export async function deleteEndedAdminSessions(db: Db, at: number): Promise<number> {
  const result = await db
    .deleteFrom('admin_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', at), eb('last_used_at', '<=', at - ADMIN_IDLE_MS)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Admin sessions, in the database so every server process shares them (and a sign-out ends
 * the session everywhere). Only SHA-256 hashes of the tokens are stored, as for user sessions;
 * the token lives in an HttpOnly cookie limited to the admin API. Separate from user sessions:
 * an admin session reaches no vault route, and a user session no admin route.
 */
export function createAdminSessions(db: Db, now: () => number) {
  return {
    async open(): Promise<OpenedAdminSession> {
      const at = now();
      const token = newToken();
      await deleteEndedAdminSessions(db, at);
      const expiresAt = at + ADMIN_ABSOLUTE_MS;
      await db
        .insertInto('admin_sessions')
        .values({ id: randomUUID(), token_hash: hashToken(token), created_at: at, expires_at: expiresAt, last_used_at: at })
        .execute();
      return { token, createdAt: at, expiresAt };
    },

    /** The session behind a token, or null when it is unknown, idle too long or past its end. */
    async authenticate(token: string | undefined): Promise<AdminSessionLimits | null> {
      if (!token) return null;
      const at = now();
      const row = await db
        .selectFrom('admin_sessions')
        .select(['id', 'expires_at', 'last_used_at'])
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!row) return null;
      if (row.expires_at <= at || row.last_used_at + ADMIN_IDLE_MS <= at) {
        await db.deleteFrom('admin_sessions').where('id', '=', row.id).execute();
        return null;
      }
      if (at - row.last_used_at >= TOUCH_INTERVAL_MS) {
        await db.updateTable('admin_sessions').set({ last_used_at: at }).where('id', '=', row.id).execute();
      }
      return { expiresAt: row.expires_at };
    },

    async end(token: string | undefined): Promise<void> {
      if (!token) return;
      await db.deleteFrom('admin_sessions').where('token_hash', '=', hashToken(token)).execute();
    },
  };
}

export type AdminSessions = ReturnType<typeof createAdminSessions>;
