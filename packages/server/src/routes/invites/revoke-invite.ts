import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { revokeInvite } from '../../identity/invites';
import { MESSAGES } from '../messages';

/**
 * DELETE /api/invites/{id}: the caller revokes one of their unused invitations (any mode, so
 * links made before the operator changed the mode can still be withdrawn); 404 for any other id.
 */
export const revokeInviteRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.invite('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const id = routeInput(request, 'revoke-invite').params.id.toLowerCase();
    await revokeInvite(ctx, user.id, id);
    return { message: MESSAGES.inviteRevoked };
  });
};
