import { randomUUID } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { relyingPartyFor } from '../../auth/webauthn/relying-party';
import { authenticationOptions, CHALLENGE_LIFETIME_MS } from '../../auth/webauthn/ceremonies';
import { HttpError } from '../../http/http-error';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

/**
 * POST /api/user/passkey/unlock-options (session only): a challenge for unlocking this
 * session's vault with a passkey. allowCredentials lists only the caller's passkeys that hold
 * an unlock key, so the browser offers no other; user verification is required, as at passkey
 * sign-in, because the passkey stands in for the master password. The PRF input is the client's
 * own fixed value (decision 0049), not something this answer chooses. The challenge is stored
 * for this user and purpose, 5 minutes, single use, and rationed per address like passkey sign-in's.
 */
export const passkeyUnlockOptionsRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.passkeyUnlockOptions, async (request) => {
    const { user } = requireSession(request);
    const rp = relyingPartyFor(request, ctx.config);
    await ctx.rateLimits.hit('prelogin', request.ip, '');
    const credentials = await ctx.repos.webauthn.listUnlockingByUser(user.id);
    if (credentials.length === 0) throw new HttpError(400, WEBAUTHN_MESSAGES.noUnlockingPasskey);
    const options = await authenticationOptions(rp, credentials, 'required');
    const challengeId = randomUUID();
    const now = ctx.now();
    await ctx.repos.webauthn.insertChallenge({
      id: challengeId,
      user_id: user.id,
      purpose: 'unlock',
      challenge: options.challenge,
      created_at: now,
      expires_at: now + CHALLENGE_LIFETIME_MS,
    });
    return { message: WEBAUTHN_MESSAGES.unlockOptions, data: { challengeId, options } };
  });
};
