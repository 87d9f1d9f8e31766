import { apiPaths, SESSION_VALID_MESSAGE } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';

/** POST /api/users/verify: "Success" when the session is valid (401 otherwise, by the session guard). */
export const verifySessionRoute: RoutePlugin = async (app) => {
  app.post(apiPaths.verifySession, async (request) => {
    const { user } = requireSession(request);
    return { message: SESSION_VALID_MESSAGE, data: { username: user.username } };
  });
};
