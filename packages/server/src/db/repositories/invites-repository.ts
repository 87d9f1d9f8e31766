import type { Insertable, Selectable } from 'kysely';
import type { Db, Executor, InvitesTable } from '../schema';

export type InviteRow = Selectable<InvitesTable>;

/** Invitation rows (decision 0044): found by the hash of their token, never by the token. */
export function createInvitesRepository(db: Db) {
  return {
    async insert(row: Insertable<InvitesTable>, ex: Executor = db): Promise<void> {
      await ex.insertInto('invites').values(row).execute();
    },

    findByTokenHash(tokenHash: string, ex: Executor = db): Promise<InviteRow | undefined> {
      return ex.selectFrom('invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    /** A user's invitations not yet used and not expired at `now`, newest first. */
    listOpen(invitedBy: string, now: number, ex: Executor = db): Promise<InviteRow[]> {
      return ex
        .selectFrom('invites')
        .selectAll()
        .where('invited_by', '=', invitedBy)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    async countOpen(invitedBy: string, now: number, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('invites')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('invited_by', '=', invitedBy)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Deletes one of the user's unused invitations; false when there is none with that id. */
    async deleteOpen(invitedBy: string, id: string, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .deleteFrom('invites')
        .where('id', '=', id)
        .where('invited_by', '=', invitedBy)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /**
     * Marks the invitation used by `userId`, atomically: true for exactly one caller, and only
     * while it is unused and unexpired. Concurrent sign-ups with one link race on this row.
     */
    async claim(id: string, userId: string, now: number, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('invites')
        .set({ used_at: now, used_by: userId })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type InvitesRepository = ReturnType<typeof createInvitesRepository>;
