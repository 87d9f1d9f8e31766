import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { MESSAGES } from '../messages';

/** POST /api/user/sessions/end-others: ends every session of the caller but this one, at once. */
export const endOtherSessionsRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.endOtherSessions, async (request) => {
    const { user, sessionId } = requireSession(request);
    const ended = await ctx.sessions.endOthers(user.id, sessionId);
    ctx.live.sessionsEnded(user.id);
    return { message: MESSAGES.otherSessionsEnded, data: { ended } };
  });
};
