import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireAuth } from '../../auth/auth-plugin';
import { MESSAGES } from '../messages';

/** GET /api/user/profile. */
export const profileRoute: RoutePlugin = async (app) => {
  app.get(apiPaths.profile, async (request) => {
    const { user } = requireAuth(request);
    return { message: MESSAGES.success, data: { username: user.username, email: user.email, fullname: user.fullname } };
  });
};
