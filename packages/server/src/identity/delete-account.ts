import type { Db } from '../db/schema';
import type { Repositories } from '../db/repositories/index';

/**
 * Deletes an account and everything of it: entry history, entries, folders, account
 * documents, key rotations not committed, codes, sessions and the user row, in one
 * transaction (explicit deletes, not only the foreign keys' cascade, so it holds whatever
 * the database's foreign-key settings). The user's own delete-account and the operator's
 * (lockit-admin, the admin page) both run this.
 */
export async function deleteAccount(ctx: { db: Db; repos: Repositories }, userId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.history.deleteByUser(userId, trx);
    await ctx.repos.entries.deleteByUser(userId, trx);
    await ctx.repos.folders.deleteByUser(userId, trx);
    await ctx.repos.changes.deleteByUser(userId, trx);
    await ctx.repos.accountDocuments.deleteByUser(userId, trx);
    await ctx.repos.keyRotations.deleteByUser(userId, trx);
    await ctx.repos.codes.delete(userId, trx);
    await ctx.repos.sessions.deleteByUserId(userId, trx);
    await ctx.repos.users.delete(userId, trx);
  });
}
