import { apiPaths, inviteIdParamsSchema } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { revokeInvite } from '../../identity/invites';
import { parseInput } from '../../http/parse-body';
import { MESSAGES } from '../messages';

/**
 * DELETE /api/invites/{id}: the caller revokes one of their unused invitations (any mode, so
 * links made before the operator changed the mode can still be withdrawn); 404 for any other id.
 */
export const revokeInviteRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.invite('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const id = parseInput(inviteIdParamsSchema, request.params).id.toLowerCase();
    await revokeInvite(ctx, user.id, id);
    return { message: MESSAGES.inviteRevoked };
  });
};
