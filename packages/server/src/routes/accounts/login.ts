import { apiPaths, loginRequestSchema } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { foldName } from '../../identity/fold-name';
import { verifyAgainstDummy, verifyAuthKey } from '../../auth/password-hashing';
import { setSessionCookies } from '../../auth/session-cookies';
import { HttpError } from '../../http/http-error';
import { parseBody } from '../../http/parse-body';
import { MESSAGES } from '../messages';

/**
 * POST /api/users/login. An unknown name costs the same Argon2 work as a wrong key and gets
 * the same answer. Every check counts towards the lockouts up front; success resets them. An
 * unverified or disabled account is told so only after a correct authKey.
 */
export const loginRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.login, { config: { public: true } }, async (request, reply) => {
    const body = parseBody(loginRequestSchema, request.body);
    const usernameFolded = foldName(body.username);
    await ctx.rateLimits.beforeLogin(request.ip, usernameFolded).catch((refusal: unknown) => {
      ctx.metrics.signInFailed('rate_limited');
      throw refusal;
    });

    const user = await ctx.repos.users.findByFoldedUsername(usernameFolded);
    const valid = user ? await verifyAuthKey(user.auth_hash, body.password) : await verifyAgainstDummy(body.password);
    if (!user || !valid) {
      ctx.metrics.signInFailed('invalid_credentials');
      throw new HttpError(401, MESSAGES.invalidCredentials);
    }
    await ctx.rateLimits.loginSucceeded(request.ip, usernameFolded);
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
    const tokens = await ctx.sessions.issue(user.id, request.headers['user-agent']);
    setSessionCookies(reply, ctx.config, tokens);
    ctx.metrics.signInSucceeded();
    return {
      message: MESSAGES.loginSuccessful,
      data: { username: user.username, email: user.email, protectedKey: user.protected_key },
    };
  });
};
