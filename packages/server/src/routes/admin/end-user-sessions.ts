import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { endUserSessions } from '../../admin/account-admin';
import { logAdminAction } from '../../admin/admin-log';
import { HttpError } from '../../http/http-error';
import { ADMIN_MESSAGES } from './admin-messages';
import { adminOnly } from './admin-http';

/** POST /api/admin/users/{id}/end-sessions: signs the account out everywhere, at once. */
export const endUserSessionsRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.post(`${adminPaths.user('')}:id/end-sessions`, adminOnly(admin), async (request) => {
    const { id } = routeInput(request, 'admin-end-user-sessions').params;
    const ended = await endUserSessions(ctx, id);
    if (ended === 'not-found') throw new HttpError(404, ADMIN_MESSAGES.noSuchUser);
    logAdminAction(request.log, 'end-sessions', { via: 'api', ip: request.ip, targetUserId: id });
    return { message: ADMIN_MESSAGES.sessionsEnded, data: { ended } };
  });
};
