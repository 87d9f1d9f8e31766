import { randomUUID } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { loadSignedInUser } from '../../auth/require-session';
import { relyingPartyFor } from '../../auth/webauthn/relying-party';
import { CHALLENGE_LIFETIME_MS, registrationOptions } from '../../auth/webauthn/ceremonies';
import { requireCurrentPassword } from '../../auth/webauthn/require-current-password';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

/**
 * POST /api/user/webauthn/register-options: the creation options of a new security key or
 * passkey. Needs the current authKey (a stolen session alone cannot add a way in), rationed
 * like change-password's check. The challenge is stored for this user and purpose, 5 minutes,
 * single use; the purpose records whether a passkey was asked for, so registration knows
 * whether to require user verification.
 */
export const registerWebauthnOptionsRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.webauthnRegisterOptions, async (request) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const { body } = routeInput(request, 'webauthn-register-options');
    const rp = relyingPartyFor(request, ctx.config);
    await requireCurrentPassword(ctx, user, body.password);
    const existing = await ctx.repos.webauthn.listByUser(user.id);
    const options = await registrationOptions(rp, user, existing, body.passkey);
    const challengeId = randomUUID();
    const now = ctx.now();
    await ctx.repos.webauthn.insertChallenge({
      id: challengeId,
      user_id: user.id,
      purpose: body.passkey ? 'register-passkey' : 'register-security-key',
      challenge: options.challenge,
      created_at: now,
      expires_at: now + CHALLENGE_LIFETIME_MS,
    });
    return { message: WEBAUTHN_MESSAGES.registerOptions, data: { challengeId, options } };
  });
};
