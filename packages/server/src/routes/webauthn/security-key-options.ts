import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { relyingPartyFor } from '../../auth/webauthn/relying-party';
import { authenticationOptions } from '../../auth/webauthn/ceremonies';
import { findPendingSignIn, setPendingWebauthnChallenge } from '../../auth/two-factor/pending-sign-ins';
import { HttpError } from '../../http/http-error';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

/**
 * POST /api/users/login/webauthn-options (public, but only with a pending sign-in's token, i.e.
 * after the correct master password): request options listing that account's security keys
 * and passkeys. The challenge is kept on the pending sign-in, replacing any earlier one.
 * User verification is discouraged: the password was the first factor, the key is the second.
 */
export const securityKeyOptionsRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.loginWebauthnOptions, { config: { public: true } }, async (request) => {
    const { body } = routeInput(request, 'login-webauthn-options');
    const rp = relyingPartyFor(request, ctx.config);
    const pending = await findPendingSignIn(ctx, body.token);
    if (!pending) throw new HttpError(410, WEBAUTHN_MESSAGES.signInExpired);
    const credentials = await ctx.repos.webauthn.listByUser(pending.user_id);
    if (credentials.length === 0) throw new HttpError(400, WEBAUTHN_MESSAGES.noSecurityKey);
    const options = await authenticationOptions(rp, credentials, 'discouraged');
    await setPendingWebauthnChallenge(ctx, pending.id, options.challenge);
    return { message: WEBAUTHN_MESSAGES.signInOptions, data: { options } };
  });
};
