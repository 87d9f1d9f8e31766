import type { Db } from '../db/schema';
import type { Repositories } from '../db/repositories/index';
import type { AttachmentStore } from '../attachments/attachment-store';

/**
 * Deletes an account and everything of it: entry history, entries, folders, account
 * documents, attachments (rows, then their files), share links (rows, then shared files), key rotations not committed, codes, sessions and the user row, in one
 * transaction (explicit deletes, not only the foreign keys' cascade, so it holds whatever
 * the database's foreign-key settings). The user's own delete-account and the operator's
 * (lockit-admin, the admin page) both run this.
 */
export async function deleteAccount(
  ctx: { db: Db; repos: Repositories; attachments: AttachmentStore },
  userId: string,
): Promise<void> {
  const { attachmentIds, shareIds } = await ctx.db.transaction().execute(async (trx) => {
    const ids = await ctx.repos.attachments.idsOfUser(userId, trx);
    await ctx.repos.attachments.delete(userId, ids, trx);
    const shares = await ctx.repos.shareLinks.deleteByUser(userId, trx);
    await ctx.repos.history.deleteByUser(userId, trx);
    await ctx.repos.entries.deleteByUser(userId, trx);
    await ctx.repos.folders.deleteByUser(userId, trx);
    await ctx.repos.changes.deleteByUser(userId, trx);
    await ctx.repos.accountDocuments.deleteByUser(userId, trx);
    await ctx.repos.keyRotations.deleteByUser(userId, trx);
    await ctx.repos.codes.delete(userId, trx);
    await ctx.repos.sessions.deleteByUserId(userId, trx);
    await ctx.repos.users.delete(userId, trx);
    return { attachmentIds: ids, shareIds: shares };
  });
  // Files beside SQLite go once the rows are gone for good (PostgreSQL's went with the rows).
  await ctx.attachments.discard(userId, attachmentIds);
  await ctx.attachments.shared.discard(shareIds.map((id) => ({ userId, id })));
}
