import { apiPaths, type SecondFactorResponse } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { completeSignIn } from '../../auth/two-factor/complete-sign-in';
import { deletePendingSignIn, findPendingSignIn, recordPendingFailure } from '../../auth/two-factor/pending-sign-ins';
import { hashRecoveryCode } from '../../auth/two-factor/recovery-codes';
import { matchTotpStep } from '../../auth/two-factor/totp';
import { openTotpSeed } from '../../auth/two-factor/totp-seed-seal';
import { reserveSecondFactorCheck } from '../../auth/two-factor/second-factor-allowance';
import { HttpError } from '../../http/http-error';
import { admitSignIn } from '../../auth/sign-in-policy';
import { MESSAGES } from '../messages';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

/**
 * POST /api/users/login/second-factor (public, but only with a pending sign-in's token, i.e.
 * after the correct master password): completes the sign-in with a TOTP or recovery code.
 *
 * Security invariants: a TOTP code's step must be later than the last step used, claimed by
 * a conditional UPDATE (a replayed code, or an older step after a newer one, is refused, and
 * two concurrent uses of one code give one success); a recovery code is marked used the same
 * way. Each wrong code counts against the pending sign-in (dead after 5; the first failure
 * mails the owner) and against the device's and the account's hourly second-factor allowance
 * (second-factor-allowance.ts), known browser or not, which no correct password resets: a
 * password holder cannot grind codes by restarting sign-ins.
 */
export const loginSecondFactorRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.loginSecondFactor, { config: { public: true } }, async (request, reply) => {
    const { body } = routeInput(request, 'login-second-factor');
    const pending = await findPendingSignIn(ctx, body.token);
    if (!pending) throw new HttpError(410, TWO_FACTOR_MESSAGES.signInExpired);
    const user = await ctx.repos.users.findById(pending.user_id);
    if (!user) throw new HttpError(410, TWO_FACTOR_MESSAGES.signInExpired);
    const knownDevice = pending.known_device === 1;
    const seed = user.totp_secret === null ? undefined : openTotpSeed(ctx.config.serverSecret, user.id, user.totp_secret);
    if (body.method === 'totp' && seed === undefined) throw new HttpError(400, TWO_FACTOR_MESSAGES.totpNotOn);
    const check = await reserveSecondFactorCheck(ctx, request, user.id);

    let recoveryCodesLeft: number | undefined;
    let accepted: boolean;
    if (body.method === 'totp' && seed !== undefined) {
      const step = matchTotpStep(seed, body.code, ctx.now());
      accepted = step !== undefined && (await ctx.repos.twoFactor.claimTotpStep(user.id, step));
    } else {
      accepted = await ctx.repos.twoFactor.useRecoveryCode(user.id, hashRecoveryCode(body.code), ctx.now());
      if (accepted) recoveryCodesLeft = await ctx.repos.twoFactor.countUnusedRecoveryCodes(user.id);
    }

    if (!accepted) {
      const { dead } = await recordPendingFailure(ctx, pending, user);
      if (dead) throw new HttpError(410, TWO_FACTOR_MESSAGES.tooManyWrongCodes);
      throw new HttpError(
        401,
        body.method === 'totp' ? TWO_FACTOR_MESSAGES.wrongTotpCode : TWO_FACTOR_MESSAGES.wrongRecoveryCode,
      );
    }
    await check.succeeded();
    // Deleting it makes the pending sign-in single use: of two racing completions, one wins.
    if (!(await deletePendingSignIn(ctx, pending.id))) throw new HttpError(410, TWO_FACTOR_MESSAGES.signInExpired);
    const admitted = admitSignIn(ctx, user);
    const login = await completeSignIn(ctx, request, reply, admitted, { knownDevice, remember: body.remember });
    const data: SecondFactorResponse['data'] = recoveryCodesLeft === undefined ? login : { ...login, recoveryCodesLeft };
    return { message: MESSAGES.loginSuccessful, data };
  });
};
