import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';

/**
 * DELETE /api/user/sessions/{id}: ends one of the caller's other sessions at once (its next
 * request, by access or refresh cookie, gets 401). 404 for an id that is not one of the
 * caller's sessions, so another user's ids can be neither ended nor probed; 400 for the
 * caller's own, which logout ends (it also clears the cookies).
 */
export const endSessionRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.session('')}:id`, async (request) => {
    const { user, sessionId } = requireSession(request);
    const id = routeInput(request, 'end-session').params.id.toLowerCase();
    const outcome = await ctx.sessions.endOne(user.id, sessionId, id);
    if (outcome === 'current') throw new HttpError(400, MESSAGES.sessionIsCurrent);
    if (outcome === 'not-found') throw new HttpError(404, MESSAGES.sessionNotFound);
    ctx.live.sessionsEnded(user.id);
    return { message: MESSAGES.sessionEndedByOwner };
  });
};
