import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { foldName } from '../../identity/fold-name';
import { verifyAgainstDummy, verifyAuthKey } from '../../auth/password-hashing';
import { deviceCookieOf } from '../../auth/device-cookies';
import { completeSignIn } from '../../auth/two-factor/complete-sign-in';
import { isRememberedFor } from '../../auth/two-factor/remember-cookie';
import { secondFactorMethods } from '../../auth/two-factor/second-factor-methods';
import { startPendingSignIn } from '../../auth/two-factor/pending-sign-ins';
import { HttpError } from '../../http/http-error';
import { admitSignIn, underSignInLimit } from '../../auth/sign-in-policy';
import { MESSAGES } from '../messages';
import { sessionClientOf, storedClient } from '../../auth/session-client';
import { TWO_FACTOR_MESSAGES } from '../two-factor/two-factor-messages';

/**
 * POST /api/users/login. An unknown name costs the same Argon2 work as a wrong key and gets
 * the same answer. Every check counts towards the lockouts up front; success resets them. An
 * unverified or disabled account is told so only after a correct authKey, by the sign-in
 * policy every sign-in path shares (sign-in-policy.ts).
 *
 * A browser that signed in to this account before carries a device cookie: its checks are
 * rationed per cookie only, so strangers' failures (per address, per account) never lock it
 * out; a cookie with too many failures of its own is distrusted and meets those limits too.
 *
 * An account with a second factor gets, after the correct key, a pending sign-in
 * instead of a session unless this browser is remembered for it; without a factor the
 * answer is the spec's, unchanged.
 */
export const loginRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.login, { config: { public: true } }, async (request, reply) => {
    const { body } = routeInput(request, 'login');
    const usernameFolded = foldName(body.username);
    const findUser = () => ctx.repos.users.findByFoldedUsername(usernameFolded);
    const device = deviceCookieOf(request, ctx.config, ctx.now());
    // Looked up before the limits only for a browser with a valid device cookie: a refused
    // stranger still costs no database read.
    const known = device ? await findUser() : undefined;
    const trusted = device !== undefined && known?.id === device.userId && (await ctx.rateLimits.beforeDeviceLogin(device.nonce));
    if (!trusted) {
      await underSignInLimit(ctx, () => ctx.rateLimits.beforeLogin(request.ip, usernameFolded));
    }

    const user = device ? known : await findUser();
    const valid = user ? await verifyAuthKey(user.auth_hash, body.password) : await verifyAgainstDummy(body.password);
    if (!user || !valid) {
      ctx.metrics.signInFailed('invalid_credentials');
      throw new HttpError(401, MESSAGES.invalidCredentials);
    }
    if (trusted) await ctx.rateLimits.deviceLoginSucceeded(device.nonce);
    else await ctx.rateLimits.loginSucceeded(request.ip, usernameFolded);
    // Told only after a correct key (the policy's refusals): a guess learns nothing.
    const admitted = admitSignIn(ctx, user);
    // Only a device cookie still within its own allowance vouches for the browser (and so
    // exempts its second factor from the account's cap): a distrusted one counts as new.
    const knownDevice = trusted;
    // A second factor is asked unless this browser is remembered for this user at the
    // current epoch; the answer then holds a pending sign-in's token, no session, no key.
    if (!isRememberedFor(request, ctx.config, user, ctx.now())) {
      const methods = await secondFactorMethods(ctx, user);
      if (methods.length > 0) {
        const origin = storedClient(sessionClientOf(request));
        const { token, expiresAt } = await startPendingSignIn(ctx, admitted, { knownDevice, origin });
        const secondFactor = { token, methods, expiresAt: new Date(expiresAt).toISOString() };
        return { message: TWO_FACTOR_MESSAGES.secondFactorRequired, data: { secondFactor } };
      }
    }
    const data = await completeSignIn(ctx, request, reply, admitted, { knownDevice, remember: false });
    return { message: MESSAGES.loginSuccessful, data };
  });
};
