import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { loadSignedInUser } from '../../auth/require-session';
import { makeRecoveryCodesIfNone, raiseTwoFactorEpoch } from '../../auth/two-factor/two-factor-changes';
import { matchTotpStep } from '../../auth/two-factor/totp';
import { openTotpSeed } from '../../auth/two-factor/totp-seed-seal';
import { HttpError } from '../../http/http-error';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

/**
 * POST /api/user/two-factor/totp/confirm: a code of the pending seed turns TOTP on, in one
 * transaction: the seed moves to totp_secret, the code's step counts as used (it cannot sign
 * in afterwards), the epoch rises (remembered browsers must pass the new factor), and with the
 * account's first factor come 10 recovery codes, shown once in this answer.
 */
export const totpConfirmRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.totpConfirm, async (request, reply) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const { body } = routeInput(request, 'totp-confirm');
    if (user.totp_secret !== null) throw new HttpError(409, TWO_FACTOR_MESSAGES.totpAlreadyOn);
    const pending =
      user.totp_pending_secret !== null && (user.totp_pending_expires_at ?? 0) > ctx.now()
        ? openTotpSeed(ctx.config.serverSecret, user.id, user.totp_pending_secret)
        : undefined;
    if (pending === undefined) throw new HttpError(400, TWO_FACTOR_MESSAGES.totpSetupExpired);
    // Rationed like the current-password check: a stolen session is no code-guessing oracle.
    await ctx.rateLimits.beforePasswordCheck(user.id);
    const step = matchTotpStep(pending, body.code, ctx.now());
    if (step === undefined) throw new HttpError(400, TWO_FACTOR_MESSAGES.totpConfirmWrong);
    await ctx.rateLimits.passwordCheckSucceeded(user.id);
    const recoveryCodes = await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.twoFactor.enableTotp(user.id, user.totp_pending_secret!, step, ctx.now(), trx);
      await raiseTwoFactorEpoch(ctx, user.id, trx);
      return makeRecoveryCodesIfNone(ctx, user.id, trx);
    });
    reply.header('cache-control', 'no-store');
    return { message: TWO_FACTOR_MESSAGES.totpOn, data: recoveryCodes ? { recoveryCodes } : {} };
  });
};
