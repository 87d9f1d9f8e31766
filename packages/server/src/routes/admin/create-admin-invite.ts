import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { logAdminAction } from '../../admin/admin-log';
import { createInvite } from '../../identity/invites';
import { ADMIN_MESSAGES } from './admin-messages';
import { adminOnly, iso } from './admin-http';

/**
 * POST /api/admin/invites: an invitation from the operator (whatever the sign-up mode), for
 * anyone or for one address. The answer carries the link to copy; it is mailed too when an
 * address is given and SMTP is configured. The link is for the operator's eyes: never logged.
 */
export const createAdminInviteRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.post(adminPaths.invites, adminOnly(admin), async (request) => {
    const { body } = routeInput(request, 'admin-invite');
    const origin = ctx.config.appOrigin ?? `${request.protocol}://${request.host}`;
    const invite = await createInvite(ctx, { invitedBy: null, origin, ...(body.email ? { email: body.email } : {}) });
    logAdminAction(request.log, 'invite', { via: 'api', ip: request.ip, outcome: invite.mailed ? 'mailed' : 'link only' });
    return {
      message: ADMIN_MESSAGES.inviteCreated,
      data: { link: invite.url, expiresAt: iso(invite.expiresAt), emailed: invite.mailed },
    };
  });
};
