import { adminPaths, type AdminUser } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { listUsers, type AdminUserView } from '../../admin/account-admin';
import { logAdminAction } from '../../admin/admin-log';
import { ADMIN_MESSAGES } from './admin-messages';
import { adminOnly, iso } from './admin-http';

/** GET /api/admin/users: every account, oldest first, with counts and sizes, never vault content. */
export const listUsersRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.get(adminPaths.users, adminOnly(admin), async (request) => {
    const users = await listUsers(ctx);
    logAdminAction(request.log, 'list-users', { via: 'api', ip: request.ip });
    return { message: ADMIN_MESSAGES.ok, data: { users: users.map(toAdminUserWire) } };
  });
};

export function toAdminUserWire(user: AdminUserView): AdminUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    createdAt: iso(user.createdAt),
    lastSeenAt: user.lastSeenAt === null ? null : iso(user.lastSeenAt),
    verified: user.verified,
    disabled: user.disabled,
    items: user.items,
    bytes: user.bytes,
    twoFactor: user.twoFactor,
  };
}
