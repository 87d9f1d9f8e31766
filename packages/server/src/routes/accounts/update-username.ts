import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { foldName } from '../../identity/fold-name';
import { requireSession } from '../../auth/require-session';
import { isUniqueViolation } from '../../db/create-database';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';

/**
 * PUT /api/users/update-username. A change of case of one's own name is allowed. A taken name
 * answers 409 (it must be visible to be chosen), so tries are rate-limited like sign-up.
 */
export const updateUsernameRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(apiPaths.updateUsername, async (request) => {
    const { user } = requireSession(request);
    const { body } = routeInput(request, 'update-username');
    const usernameFolded = foldName(body.username);
    // Each answer says whether a name is taken: limited like sign-up, per address and per account.
    await ctx.rateLimits.hit('updateUsername', request.ip, `user\u0000${user.id}`);
    const owner = await ctx.repos.users.findByFoldedUsername(usernameFolded);
    if (owner && owner.id !== user.id) throw new HttpError(409, MESSAGES.usernameTaken);
    try {
      await ctx.repos.users.updateUsername(user.id, body.username, usernameFolded, ctx.now());
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, MESSAGES.usernameTaken);
      throw error;
    }
    return { message: MESSAGES.usernameUpdated, data: { username: body.username } };
  });
};
