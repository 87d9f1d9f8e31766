import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { ACCESS_COOKIE, clearSessionCookies, REFRESH_COOKIE } from '../../auth/session-cookies';
import { MESSAGES } from '../messages';

/**
 * POST /api/users/logout. Public so that it always succeeds and always clears the cookies;
 * the session behind either cookie is deleted, so a copied cookie stops working too.
 */
export const logoutRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.logout, { config: { public: true } }, async (request, reply) => {
    const userId = await ctx.sessions.endByTokens(request.cookies[ACCESS_COOKIE], request.cookies[REFRESH_COOKIE]);
    // The session's live streams close now, in whichever process holds them.
    if (userId) ctx.live.sessionsEnded(userId);
    clearSessionCookies(reply, ctx.config);
    return { message: MESSAGES.loggedOut };
  });
};
