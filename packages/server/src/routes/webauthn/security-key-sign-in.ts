import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { relyingPartyFor } from '../../auth/webauthn/relying-party';
import { credentialIdOf } from '../../auth/webauthn/ceremonies';
import { countedAssertion } from '../../auth/webauthn/counted-assertion';
import { completeSignIn } from '../../auth/two-factor/complete-sign-in';
import { reserveSecondFactorCheck } from '../../auth/two-factor/second-factor-allowance';
import { deletePendingSignIn, findPendingSignIn, recordPendingFailure } from '../../auth/two-factor/pending-sign-ins';
import { HttpError } from '../../http/http-error';
import { admitSignIn } from '../../auth/sign-in-policy';
import { MESSAGES } from '../messages';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

/**
 * POST /api/users/login/webauthn: completes a pending sign-in (correct master password) with
 * a security key or passkey as the second factor.
 *
 * Security invariants: the credential must belong to the pending sign-in's own account (a
 * key of another account, however valid, completes nothing); the challenge is the one stored
 * on this pending sign-in, taken once; the signature counter must move forward (unless the
 * authenticator keeps none: both 0). Any refusal counts as a failure of the pending sign-in
 * (its cap, and the "password known, second step failed" mail) and gets one 401 message; each
 * answer checked counts against the device's and the account's hourly allowance of wrong
 * second factors like a TOTP code (429 past it).
 */
export const securityKeySignInRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.loginWebauthn, { config: { public: true } }, async (request, reply) => {
    const { body } = routeInput(request, 'login-webauthn');
    const rp = relyingPartyFor(request, ctx.config);
    const pending = await findPendingSignIn(ctx, body.token);
    if (!pending?.webauthn_challenge) throw new HttpError(410, WEBAUTHN_MESSAGES.signInExpired);
    // Taken once: a replayed answer finds no challenge left.
    const challenge = await ctx.repos.webauthn.takePendingChallenge(pending.id, pending.webauthn_challenge);
    if (!challenge) throw new HttpError(410, WEBAUTHN_MESSAGES.signInExpired);
    const check = await reserveSecondFactorCheck(ctx, request, pending.user_id);

    const refuse = async () => {
      await recordPendingFailure(ctx, pending);
      return new HttpError(401, WEBAUTHN_MESSAGES.securityKeyFailed);
    };
    const credentialId = credentialIdOf(body.response);
    const credential = credentialId === undefined ? undefined : await ctx.repos.webauthn.findByCredentialId(credentialId);
    if (!credential || credential.user_id !== pending.user_id) throw await refuse();
    if (!(await countedAssertion(ctx, rp, credential, body.response, challenge, false))) throw await refuse();
    await check.succeeded();

    // Deleting it is what makes the pending sign-in single use: of two racing completions, one wins.
    if (!(await deletePendingSignIn(ctx, pending.id))) throw new HttpError(410, WEBAUTHN_MESSAGES.signInExpired);
    const user = await ctx.repos.users.findById(pending.user_id);
    if (!user) throw new HttpError(410, WEBAUTHN_MESSAGES.signInExpired);
    const admitted = admitSignIn(ctx, user);
    const data = await completeSignIn(ctx, request, reply, admitted, {
      knownDevice: pending.known_device === 1,
      remember: body.remember,
    });
    return { message: MESSAGES.loginSuccessful, data };
  });
};
