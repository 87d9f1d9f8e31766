import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { loadSignedInUser } from '../../auth/require-session';
import { requireCurrentPassword } from '../../auth/webauthn/require-current-password';
import { hasSecondFactor, makeNewRecoveryCodes, raiseTwoFactorEpoch } from '../../auth/two-factor/two-factor-changes';
import { HttpError } from '../../http/http-error';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

/**
 * POST /api/user/two-factor/recovery-codes: with the current authKey, 10 new codes shown once;
 * the old ones, used or not, stop working, and the epoch rises (a remembered browser was
 * trusted under the old set). Only for an account with a factor: alone, codes guard nothing.
 */
export const recoveryCodesRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.recoveryCodes, async (request, reply) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const { body } = routeInput(request, 'recovery-codes');
    await requireCurrentPassword(ctx, user, body.password);
    const recoveryCodes = await ctx.db.transaction().execute(async (trx) => {
      if (!(await hasSecondFactor(ctx, user.id, trx))) throw new HttpError(409, TWO_FACTOR_MESSAGES.recoveryCodesNeedFactor);
      await raiseTwoFactorEpoch(ctx, user.id, trx);
      return makeNewRecoveryCodes(ctx, user.id, trx);
    });
    reply.header('cache-control', 'no-store');
    return { message: TWO_FACTOR_MESSAGES.recoveryCodesMade, data: { recoveryCodes } };
  });
};
