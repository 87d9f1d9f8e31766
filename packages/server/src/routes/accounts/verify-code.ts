import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { foldName } from '../../identity/fold-name';
import { codeMatches } from '../../identity/verification-code';
import { MAX_CODE_ATTEMPTS } from '../../config/app-config';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';

/**
 * POST /api/email/verify-code. A code works once, within its lifetime, and for at most
 * MAX_CODE_ATTEMPTS tries: each try is counted before the code is compared, atomically,
 * so parallel guesses cannot exceed the budget. Unknown, wrong and expired look the same:
 * a pair with no live code (unknown, verified, pending without one) has stand-in tries
 * (rateLimits.decoyAttempt), so it too answers "too many wrong codes" after the same count.
 */
export const verifyCodeRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.verifyCode, { config: { public: true } }, async (request) => {
    const { body } = routeInput(request, 'verify-code');
    const usernameFolded = foldName(body.username);
    const emailFolded = foldName(body.email);
    await ctx.rateLimits.hit('verifyCode', request.ip, `${usernameFolded}|${emailFolded}`);

    const user = await ctx.repos.users.findByFoldedUsername(usernameFolded);
    const owned = user && user.email_folded === emailFolded && user.verified_at === null;
    const pending = owned ? await ctx.repos.codes.find(user.id) : undefined;
    if (!user || !pending || pending.expires_at <= ctx.now()) {
      const pairKey = `${usernameFolded}|${emailFolded}`;
      const allowed = await ctx.rateLimits.decoyAttempt(pairKey, ctx.config.timing.codeLifetimeMs);
      throw new HttpError(400, allowed ? MESSAGES.codeInvalid : MESSAGES.tooManyWrongCodes);
    }
    if (!(await ctx.repos.codes.claimAttempt(user.id, MAX_CODE_ATTEMPTS))) {
      throw new HttpError(400, MESSAGES.tooManyWrongCodes);
    }
    if (!codeMatches(ctx.config.serverSecret, user.id, body.code, pending.code_hash)) {
      throw new HttpError(400, MESSAGES.codeInvalid);
    }
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.users.markVerified(user.id, ctx.now(), trx);
      await ctx.repos.codes.delete(user.id, trx);
    });
    return { message: MESSAGES.emailVerified };
  });
};
