import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { loadSignedInUser } from '../../auth/require-session';
import { requireCurrentPassword } from '../../auth/webauthn/require-current-password';
import { newTotpSecret, totpUri } from '../../auth/two-factor/totp';
import { sealTotpSeed } from '../../auth/two-factor/totp-seed-seal';
import { HttpError } from '../../http/http-error';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

/** How long a seed being enrolled waits for its confirming code. */
export const TOTP_SETUP_LIFETIME_MS = 10 * 60_000;

/**
 * POST /api/user/two-factor/totp/setup: with the current authKey (change-password's ration),
 * a new seed kept pending, sealed under the server secret, for 10 minutes. TOTP is not on
 * until a code from the app confirms it, so a mistyped scan never locks the owner out.
 */
export const totpSetupRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.totpSetup, async (request, reply) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const { body } = routeInput(request, 'totp-setup');
    await requireCurrentPassword(ctx, user, body.password);
    if (user.totp_secret !== null) throw new HttpError(409, TWO_FACTOR_MESSAGES.totpAlreadyOn);
    const secret = newTotpSecret();
    const sealed = sealTotpSeed(ctx.config.serverSecret, user.id, secret);
    await ctx.repos.twoFactor.setPendingTotp(user.id, sealed, ctx.now() + TOTP_SETUP_LIFETIME_MS);
    reply.header('cache-control', 'no-store');
    return { message: TWO_FACTOR_MESSAGES.totpSetup, data: { secret, uri: totpUri(secret, user.username) } };
  });
};
