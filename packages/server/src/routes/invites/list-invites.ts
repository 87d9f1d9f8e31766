import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { listOpenInvites } from '../../identity/invites';
import { MESSAGES } from '../messages';
import { toInviteWire } from './invite-wire';

/** GET /api/invites: the caller's invitations not yet used and not expired, newest first (any mode). */
export const listInvitesRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.invites, async (request) => {
    const { user } = requireSession(request);
    const rows = await listOpenInvites(ctx, user.id);
    return { message: MESSAGES.ok, data: rows.map(toInviteWire) };
  });
};
