import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { disableUser, getUser } from '../../admin/account-admin';
import { logAdminAction } from '../../admin/admin-log';
import { HttpError } from '../../http/http-error';
import { ADMIN_MESSAGES } from './admin-messages';
import { adminOnly } from './admin-http';
import { toAdminUserWire } from './list-users';

/** POST /api/admin/users/{id}/disable: the account cannot sign in; its sessions end at once. */
export const disableUserRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.post(`${adminPaths.user('')}:id/disable`, adminOnly(admin), async (request) => {
    const { id } = routeInput(request, 'admin-disable-user').params;
    const outcome = await disableUser(ctx, id);
    if (outcome === 'not-found') throw new HttpError(404, ADMIN_MESSAGES.noSuchUser);
    logAdminAction(request.log, 'disable', { via: 'api', ip: request.ip, targetUserId: id, outcome });
    const user = await getUser(ctx, id);
    if (!user) throw new HttpError(404, ADMIN_MESSAGES.noSuchUser);
    const message = outcome === 'done' ? ADMIN_MESSAGES.disabled : ADMIN_MESSAGES.alreadyDisabled;
    return { message, data: { user: toAdminUserWire(user) } };
  });
};
