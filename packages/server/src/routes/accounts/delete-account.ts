import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { clearDeviceCookie } from '../../auth/device-cookies';
import { clearSessionCookies } from '../../auth/session-cookies';
import { deleteAccount } from '../../identity/delete-account';
import { MESSAGES } from '../messages';

/** DELETE /api/users/delete-account: the account and everything of it (identity/delete-account.ts). */
export const deleteAccountRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(apiPaths.deleteAccount, async (request, reply) => {
    const { user } = requireSession(request);
    await deleteAccount(ctx, user.id);
    ctx.live.sessionsEnded(user.id);
    clearSessionCookies(reply, ctx.config);
    clearDeviceCookie(reply, ctx.config);
    return { message: MESSAGES.accountDeleted };
  });
};
