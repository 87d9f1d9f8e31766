import { apiPaths, type CreatedInvite } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { createInvite } from '../../identity/invites';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';
import { toInviteWire } from './invite-wire';

/**
 * POST /api/invites: a signed-in user invites someone, only when SIGNUP_MODE is invite. The
 * answer always carries the link (the only copy of its token) so the page can show it to
 * copy; with SMTP configured and an address given, the link is mailed too. The link's
 * origin is APP_ORIGIN, else the address this request was sent to.
 */
export const createInviteRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.invites, async (request, reply) => {
    const { user } = requireSession(request);
    const { body } = routeInput(request, 'create-invite');
    if (ctx.config.signup.mode !== 'invite') throw new HttpError(403, MESSAGES.invitesOff);
    const origin = ctx.config.appOrigin ?? `${request.protocol}://${request.host}`;
    const created = await createInvite(ctx, { invitedBy: user.id, email: body.email, origin });
    const data: CreatedInvite = {
      ...toInviteWire({ id: created.id, email: created.email, created_at: created.createdAt, expires_at: created.expiresAt }),
      url: created.url,
      mailed: created.mailed,
    };
    const mailFailed = created.email !== null && ctx.config.smtpUrl !== undefined && !created.mailed;
    return reply.code(201).send({ message: mailFailed ? MESSAGES.inviteCreatedNotMailed : MESSAGES.inviteCreated, data });
  });
};
