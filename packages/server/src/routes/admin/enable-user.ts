import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { enableUser, getUser } from '../../admin/account-admin';
import { logAdminAction } from '../../admin/admin-log';
import { HttpError } from '../../http/http-error';
import { ADMIN_MESSAGES } from './admin-messages';
import { adminOnly } from './admin-http';
import { toAdminUserWire } from './list-users';

/** POST /api/admin/users/{id}/enable: a disabled account may sign in again. */
export const enableUserRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.post(`${adminPaths.user('')}:id/enable`, adminOnly(admin), async (request) => {
    const { id } = routeInput(request, 'admin-enable-user').params;
    const outcome = await enableUser(ctx, id);
    if (outcome === 'not-found') throw new HttpError(404, ADMIN_MESSAGES.noSuchUser);
    logAdminAction(request.log, 'enable', { via: 'api', ip: request.ip, targetUserId: id, outcome });
    const user = await getUser(ctx, id);
    if (!user) throw new HttpError(404, ADMIN_MESSAGES.noSuchUser);
    const message = outcome === 'done' ? ADMIN_MESSAGES.enabled : ADMIN_MESSAGES.alreadyEnabled;
    return { message, data: { user: toAdminUserWire(user) } };
  });
};
