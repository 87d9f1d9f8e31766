import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { loadSignedInUser } from '../../auth/require-session';
import { requireCurrentPassword } from '../../auth/webauthn/require-current-password';
import { deleteRecoveryCodesIfNoFactor, raiseTwoFactorEpoch } from '../../auth/two-factor/two-factor-changes';
import { HttpError } from '../../http/http-error';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

/**
 * POST /api/user/webauthn/{id}/remove: with the current authKey, deletes one of the caller's
 * credentials and, in the same row, its PRF-wrapped vault key: that passkey can neither sign
 * in nor unlock again. Raises the two-factor epoch; with the last factor gone, the recovery
 * codes go too (they would recover nothing). 404 for anyone else's credential.
 */
export const removeWebauthnRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(`${apiPaths.webauthnCredential('')}:id/remove`, async (request) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const {
      params: { id },
      body,
    } = routeInput(request, 'webauthn-remove');
    await requireCurrentPassword(ctx, user, body.password);
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await ctx.repos.webauthn.delete(user.id, id.toLowerCase(), trx)))
        throw new HttpError(404, WEBAUTHN_MESSAGES.notFound);
      await raiseTwoFactorEpoch(ctx, user.id, trx);
      await deleteRecoveryCodesIfNoFactor(ctx, user.id, trx);
    });
    return { message: WEBAUTHN_MESSAGES.removed };
  });
};
