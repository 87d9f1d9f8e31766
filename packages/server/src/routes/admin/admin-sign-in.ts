import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { logAdminAction } from '../../admin/admin-log';
import { ADMIN_ABSOLUTE_MS } from '../../admin/admin-sessions';
import { verifyAdminToken } from '../../admin/admin-token';
import { HttpError } from '../../http/http-error';
import { ADMIN_MESSAGES } from './admin-messages';
import { sessionInfo, setAdminCookie } from './admin-http';

/**
 * POST /api/admin/sign-in: the admin token, checked with Argon2 against ADMIN_TOKEN's hash,
 * rate-limited per address (every try counts). Opens a short admin session.
 */
export const adminSignInRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.post(adminPaths.signIn, { config: { public: true } }, async (request, reply) => {
    const { body } = routeInput(request, 'admin-sign-in');
    await admin.signInLimit.hit(request.ip);
    if (!(await verifyAdminToken(admin.tokenHash, body.token))) {
      logAdminAction(request.log, 'sign-in-refused', { via: 'api', ip: request.ip });
      throw new HttpError(401, ADMIN_MESSAGES.wrongToken);
    }
    const session = await admin.sessions.open();
    setAdminCookie(reply, ctx.config, session.token, ADMIN_ABSOLUTE_MS);
    logAdminAction(request.log, 'sign-in', { via: 'api', ip: request.ip });
    return { message: ADMIN_MESSAGES.signedIn, data: sessionInfo(session.expiresAt) };
  });
};
