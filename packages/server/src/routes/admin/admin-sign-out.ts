import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { logAdminAction } from '../../admin/admin-log';
import { ADMIN_MESSAGES } from './admin-messages';
import { ADMIN_COOKIE, clearAdminCookie } from './admin-http';

/** POST /api/admin/sign-out: ends the admin session (on every process) and clears its cookie. */
export const adminSignOutRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.post(adminPaths.signOut, { config: { public: true } }, async (request, reply) => {
    await admin.sessions.end(request.cookies[ADMIN_COOKIE]);
    clearAdminCookie(reply, ctx.config);
    logAdminAction(request.log, 'sign-out', { via: 'api', ip: request.ip });
    return { message: ADMIN_MESSAGES.signedOut };
  });
};
