import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { deleteUser } from '../../admin/account-admin';
import { logAdminAction } from '../../admin/admin-log';
import { HttpError } from '../../http/http-error';
import { ADMIN_MESSAGES } from './admin-messages';
import { adminOnly } from './admin-http';

/** DELETE /api/admin/users/{id}: the account and everything of it, as its own delete-account does. */
export const deleteUserRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.delete(`${adminPaths.user('')}:id`, adminOnly(admin), async (request) => {
    const { id } = routeInput(request, 'admin-delete-user').params;
    if ((await deleteUser(ctx, id)) === 'not-found') throw new HttpError(404, ADMIN_MESSAGES.noSuchUser);
    logAdminAction(request.log, 'delete', { via: 'api', ip: request.ip, targetUserId: id });
    return { message: ADMIN_MESSAGES.deleted };
  });
};
