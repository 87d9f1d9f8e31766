import { apiPaths, type PasskeySignInResponse } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { relyingPartyFor } from '../../auth/webauthn/relying-party';
import { credentialIdOf, userHandleFor, userHandleOf } from '../../auth/webauthn/ceremonies';
import { countedAssertion } from '../../auth/webauthn/counted-assertion';
import { deviceCookieOf } from '../../auth/device-cookies';
import { completeSignIn } from '../../auth/two-factor/complete-sign-in';
import { HttpError } from '../../http/http-error';
import { admitSignIn, underSignInLimit } from '../../auth/sign-in-policy';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

const NOT_AN_ANSWER = 'response must be the answer of a passkey (public-key credential).';

/**
 * POST /api/users/passkey/sign-in (public): signs in with a discoverable passkey alone.
 *
 * A passkey whose authenticator verified its user (PIN, biometrics: the UV flag, required
 * here) is two factors by itself: something held (the private key, which never leaves the
 * authenticator) and something known or been. So it skips TOTP and any other second factor,
 * as it skips the master password. Its strength is that authenticator's user verification.
 *
 * The challenge is consumed first and once, whatever follows. An unknown credential, or a
 * security key registered as a second step only, gets the very answer of a failed signature check. Attempts are rationed per address and per
 * credential id with sign-in's limiter. On success the answer carries the credential's
 * PRF-wrapped vault key (or null): the server cannot open it, and the client checks its
 * associated data names this account and the credential id its authenticator answered.
 */
export const passkeySignInRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.passkeySignIn, { config: { public: true } }, async (request, reply) => {
    const { body } = routeInput(request, 'passkey-sign-in');
    const rp = relyingPartyFor(request, ctx.config);
    const credentialId = credentialIdOf(body.response);
    if (credentialId === undefined) throw new HttpError(400, NOT_AN_ANSWER);
    const limitKey = `passkey\u0000${credentialId}`;
    await underSignInLimit(ctx, () => ctx.rateLimits.beforeLogin(request.ip, limitKey));

    const challenge = await ctx.repos.webauthn.consumeChallenge(body.challengeId, ['sign-in'], null, ctx.now());
    if (!challenge) throw new HttpError(401, WEBAUTHN_MESSAGES.challengeExpired);
    const failed = () => {
      ctx.metrics.signInFailed('invalid_credentials');
      return new HttpError(401, WEBAUTHN_MESSAGES.passkeyFailed);
    };
    const credential = await ctx.repos.webauthn.findByCredentialId(credentialId);
    // A security key the owner added as a second step never signs in alone, even if its
    // authenticator can answer a discoverable challenge: the same answer as an unknown one.
    if (!credential || Number(credential.signs_in) !== 1) throw failed();
    // A discoverable credential names its account; it must be the credential's owner.
    const handle = userHandleOf(body.response);
    if (handle !== undefined && handle !== Buffer.from(userHandleFor(credential.user_id)).toString('base64url')) throw failed();
    if (!(await countedAssertion(ctx, rp, credential, body.response, challenge.challenge, true))) throw failed();

    const user = await ctx.repos.users.findById(credential.user_id);
    if (!user) throw failed();
    await ctx.rateLimits.loginSucceeded(request.ip, limitKey);
    const admitted = admitSignIn(ctx, user);
    const knownDevice = deviceCookieOf(request, ctx.config, ctx.now())?.userId === user.id;
    await completeSignIn(ctx, request, reply, admitted, { knownDevice, remember: false });
    const data: PasskeySignInResponse = {
      username: user.username,
      email: user.email,
      userId: user.id,
      credentialId: credential.credential_id,
      unlockKey: credential.unlock_key,
      unlockSalt: credential.unlock_salt,
    };
    return { message: WEBAUTHN_MESSAGES.passkeySignedIn, data };
  });
};
