import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { clearSessionCookies } from '../../auth/session-cookies';
import { MESSAGES } from '../messages';

/**
 * DELETE /api/users/delete-account. Entry history, entries, folders, account documents, codes, sessions and the
 * user row go in one transaction (explicit deletes, not only the foreign keys' cascade, so it
 * holds whatever the database's foreign-key settings).
 */
export const deleteAccountRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(apiPaths.deleteAccount, async (request, reply) => {
    const { user } = requireSession(request);
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.history.deleteByUser(user.id, trx);
      await ctx.repos.entries.deleteByUser(user.id, trx);
      await ctx.repos.folders.deleteByUser(user.id, trx);
      await ctx.repos.accountDocuments.deleteByUser(user.id, trx);
      await ctx.repos.codes.delete(user.id, trx);
      await ctx.repos.sessions.deleteByUserId(user.id, trx);
      await ctx.repos.users.delete(user.id, trx);
    });
    clearSessionCookies(reply, ctx.config);
    return { message: MESSAGES.accountDeleted };
  });
};
