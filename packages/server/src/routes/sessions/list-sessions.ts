import { apiPaths, type DeviceSession } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import type { DeviceSession as ListedSession } from '../../auth/session-service';
import { MESSAGES } from '../messages';

/** GET /api/user/sessions: the caller's usable sessions, the current one marked. */
export const listSessionsRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.sessions, async (request) => {
    const { user, sessionId } = requireSession(request);
    const sessions = await ctx.sessions.listForUser(user.id, sessionId);
    return { message: MESSAGES.ok, data: sessions.map(toWire) };
  });
};

/** Named fields only: nothing of the row beyond these (no hash, no token) can reach the answer. */
function toWire(session: ListedSession): DeviceSession {
  return {
    id: session.id,
    browser: session.browser,
    system: session.system,
    createdAt: new Date(session.createdAt).toISOString(),
    lastUsedAt: new Date(session.lastUsedAt).toISOString(),
    address: session.address,
    signInAddress: session.signInAddress,
    current: session.current,
  };
}
