import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { loadSignedInUser } from '../../auth/require-session';
import { requireCurrentPassword } from '../../auth/webauthn/require-current-password';
import { raiseTwoFactorEpoch } from '../../auth/two-factor/two-factor-changes';
import { HttpError } from '../../http/http-error';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

/**
 * POST /api/user/two-factor/totp/disable: with the current authKey, turns TOTP off, raises the
 * epoch and, when no factor remains, deletes the recovery codes (they would recover nothing).
 */
export const totpDisableRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.totpDisable, async (request) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const { body } = routeInput(request, 'totp-disable');
    await requireCurrentPassword(ctx, user, body.password);
    if (user.totp_secret === null) throw new HttpError(409, TWO_FACTOR_MESSAGES.totpWasOff);
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.twoFactor.disableTotp(user.id, trx);
      await raiseTwoFactorEpoch(ctx, user.id, trx);
      if (!(await ctx.repos.twoFactor.hasCredentials(user.id, trx))) await ctx.repos.twoFactor.deleteRecoveryCodes(user.id, trx);
    });
    return { message: TWO_FACTOR_MESSAGES.totpOff };
  });
};
