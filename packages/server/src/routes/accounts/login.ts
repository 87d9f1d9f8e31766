import { apiPaths, loginRequestSchema } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { foldName } from '../../identity/fold-name';
import { verifyAgainstDummy, verifyAuthKey } from '../../auth/password-hashing';
import { setSessionCookies } from '../../auth/session-cookies';
import { deviceCookieOf, setDeviceCookie } from '../../auth/device-cookies';
import { HttpError } from '../../http/http-error';
import { parseBody } from '../../http/parse-body';
import { MESSAGES } from '../messages';
import { sessionClientOf } from '../../auth/session-client';

/**
 * POST /api/users/login. An unknown name costs the same Argon2 work as a wrong key and gets
 * the same answer. Every check counts towards the lockouts up front; success resets them. An
 * unverified or disabled account is told so only after a correct authKey.
 *
 * A browser that signed in to this account before carries a device cookie: its checks are
 * rationed per cookie only, so strangers' failures (per address, per account) never lock it
 * out; a cookie with too many failures of its own is distrusted and meets those limits too.
 */
export const loginRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.login, { config: { public: true } }, async (request, reply) => {
    const body = parseBody(loginRequestSchema, request.body);
    const usernameFolded = foldName(body.username);
    const findUser = () => ctx.repos.users.findByFoldedUsername(usernameFolded);
    const device = deviceCookieOf(request, ctx.config, ctx.now());
    // Looked up before the limits only for a browser with a valid device cookie: a refused
    // stranger still costs no database read.
    const known = device ? await findUser() : undefined;
    const trusted = device !== undefined && known?.id === device.userId && (await ctx.rateLimits.beforeDeviceLogin(device.nonce));
    if (!trusted) {
      await ctx.rateLimits.beforeLogin(request.ip, usernameFolded).catch((refusal: unknown) => {
        ctx.metrics.signInFailed('rate_limited');
        throw refusal;
      });
    }

    const user = device ? known : await findUser();
    const valid = user ? await verifyAuthKey(user.auth_hash, body.password) : await verifyAgainstDummy(body.password);
    if (!user || !valid) {
      ctx.metrics.signInFailed('invalid_credentials');
      throw new HttpError(401, MESSAGES.invalidCredentials);
    }
    if (trusted) await ctx.rateLimits.deviceLoginSucceeded(device.nonce);
    else await ctx.rateLimits.loginSucceeded(request.ip, usernameFolded);
    // Told only after a correct key, like an unverified account: a guess learns nothing.
    if (user.disabled_at !== null) {
      ctx.metrics.signInFailed('disabled');
      throw new HttpError(403, MESSAGES.accountDisabled);
    }
    if (user.verified_at === null) {
      ctx.metrics.signInFailed('unverified');
      throw new HttpError(403, MESSAGES.verifyEmailFirst, {
        data: { username: user.username, email: user.email, unverified: true },
      });
    }
    const tokens = await ctx.sessions.issue(user.id, sessionClientOf(request));
    setSessionCookies(reply, ctx.config, tokens);
    setDeviceCookie(reply, ctx.config, user.id, ctx.now());
    ctx.metrics.signInSucceeded();
    return {
      message: MESSAGES.loginSuccessful,
      data: { username: user.username, email: user.email, protectedKey: user.protected_key },
    };
  });
};
