import { randomUUID } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { relyingPartyFor } from '../../auth/webauthn/relying-party';
import { authenticationOptions, CHALLENGE_LIFETIME_MS } from '../../auth/webauthn/ceremonies';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

/**
 * POST /api/users/passkey/options (public): a challenge for signing in with a discoverable
 * passkey. No account is named, so the answer tells nothing about who exists; user
 * verification is required. Each call stores a challenge row (5 minutes, single use), so it
 * is rationed per address like prelogin.
 */
export const passkeyOptionsRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.passkeyOptions, { config: { public: true } }, async (request) => {
    const rp = relyingPartyFor(request, ctx.config);
    await ctx.rateLimits.hit('prelogin', request.ip, '');
    const options = await authenticationOptions(rp, undefined, 'required');
    const challengeId = randomUUID();
    const now = ctx.now();
    await ctx.repos.webauthn.insertChallenge({
      id: challengeId,
      user_id: null,
      purpose: 'sign-in',
      challenge: options.challenge,
      created_at: now,
      expires_at: now + CHALLENGE_LIFETIME_MS,
    });
    return { message: WEBAUTHN_MESSAGES.passkeyOptions, data: { challengeId, options } };
  });
};
