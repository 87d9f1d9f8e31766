import { apiPaths, type PasskeyUnlockResponse } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { relyingPartyFor } from '../../auth/webauthn/relying-party';
import { credentialIdOf, userHandleFor, userHandleOf } from '../../auth/webauthn/ceremonies';
import { countedAssertion } from '../../auth/webauthn/counted-assertion';
import { HttpError } from '../../http/http-error';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

const NOT_AN_ANSWER = 'response must be the answer of a passkey (public-key credential).';

/**
 * POST /api/user/passkey/unlock (session only): the answer to an unlock-options challenge;
 * answers the unlock key of the passkey that signed it, for the client to open with its PRF output.
 *
 * Security invariants:
 * - Scoped to the session's user: the challenge must be this user's unlock challenge (taken
 *   once, first, whatever follows), and the credential must be this user's. Another account's
 *   credential, however valid, gets the answer of a failed check and nothing changes.
 * - As at passkey sign-in, user verification is required and the signature counter must move
 *   forward (a compare-and-swap, so of two racing uses one counts); attempts are rationed per
 *   address and per credential id with sign-in's limiter, which this shares.
 * - Refusals are 400/403, never 401: the session is fine, only this passkey was not.
 * - The answer is the one the client already made and cannot be opened here; the client binds
 *   it to the credential id its authenticator answered, so handing out another is caught there.
 */
export const passkeyUnlockRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.passkeyUnlock, async (request) => {
    const { user } = requireSession(request);
    const { body } = routeInput(request, 'passkey-unlock');
    const rp = relyingPartyFor(request, ctx.config);
    const credentialId = credentialIdOf(body.response);
    if (credentialId === undefined) throw new HttpError(400, NOT_AN_ANSWER);
    const limitKey = `passkey\u0000${credentialId}`;
    await ctx.rateLimits.beforeLogin(request.ip, limitKey);

    const challenge = await ctx.repos.webauthn.consumeChallenge(body.challengeId, ['unlock'], user.id, ctx.now());
    if (!challenge) throw new HttpError(400, WEBAUTHN_MESSAGES.challengeExpired);
    const failed = () => new HttpError(403, WEBAUTHN_MESSAGES.unlockFailed);
    const credential = await ctx.repos.webauthn.findByCredentialId(credentialId);
    if (!credential || credential.user_id !== user.id) throw failed();
    // The owner's own security key, or a passkey without PRF: say so, it is no failed check.
    if (Number(credential.signs_in) !== 1 || credential.unlock_key === null || credential.unlock_salt === null) {
      throw new HttpError(400, WEBAUTHN_MESSAGES.passkeyCannotUnlock);
    }
    const handle = userHandleOf(body.response);
    if (handle !== undefined && handle !== Buffer.from(userHandleFor(user.id)).toString('base64url')) throw failed();
    if (!(await countedAssertion(ctx, rp, credential, body.response, challenge.challenge, true))) throw failed();
    await ctx.rateLimits.loginSucceeded(request.ip, limitKey);

    const data: PasskeyUnlockResponse = {
      userId: user.id,
      credentialId: credential.credential_id,
      unlockKey: credential.unlock_key,
      unlockSalt: credential.unlock_salt,
    };
    return { message: WEBAUTHN_MESSAGES.unlocked, data };
  });
};
