import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { loadSignedInUser } from '../../auth/require-session';
import { MESSAGES } from '../messages';

/** GET /api/user/profile. */
export const profileRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.profile, async (request) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    return { message: MESSAGES.success, data: { username: user.username, email: user.email, fullname: user.fullname } };
  });
};
