import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { ADMIN_MESSAGES } from './admin-messages';
import { adminOnly, adminSessionOf, sessionInfo } from './admin-http';

/** GET /api/admin/session: 200 with the session's limits when signed in as the operator, else 401. */
export const getAdminSessionRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.get(adminPaths.session, adminOnly(admin), async (request) => {
    return { message: ADMIN_MESSAGES.ok, data: sessionInfo(adminSessionOf(request).expiresAt) };
  });
};
