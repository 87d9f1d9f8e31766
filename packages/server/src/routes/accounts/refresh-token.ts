import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { clearSessionCookies, REFRESH_COOKIE, setSessionCookies } from '../../auth/session-cookies';
import { MESSAGES } from '../messages';

/**
 * POST /api/users/refresh-token: rotates both cookies. Public because the access cookie may
 * have expired; the refresh cookie is the credential. A reused refresh token ends the session.
 */
export const refreshTokenRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.refreshToken, { config: { public: true } }, async (request, reply) => {
    const outcome = await ctx.sessions.refresh(request.cookies[REFRESH_COOKIE], request.ip);
    if (outcome.kind === 'ended') {
      clearSessionCookies(reply, ctx.config);
      return reply.code(401).send({ message: MESSAGES.sessionEnded });
    }
    if (outcome.kind === 'rotated') setSessionCookies(reply, ctx.config, outcome.tokens);
    return { message: MESSAGES.tokenRefreshed };
  });
};
