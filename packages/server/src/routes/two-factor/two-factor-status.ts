import { apiPaths, type TwoFactorStatus } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { loadSignedInUser } from '../../auth/require-session';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

/** GET /api/user/two-factor: the caller's own factors, never anyone else's. */
export const twoFactorStatusRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.twoFactor, async (request, reply) => {
    const user = await loadSignedInUser(request, ctx.repos.users);
    const [recoveryCodesLeft, credentials] = await Promise.all([
      ctx.repos.twoFactor.countUnusedRecoveryCodes(user.id),
      ctx.repos.twoFactor.listCredentialSummaries(user.id),
    ]);
    const data: TwoFactorStatus = {
      totp: user.totp_secret !== null,
      recoveryCodesLeft,
      credentials: credentials.map((row) => ({
        id: row.id,
        name: row.name,
        createdAt: new Date(row.created_at).toISOString(),
        lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
        canUnlock: row.unlock_key !== null,
        backedUp: row.backed_up === 1,
      })),
      rememberBrowserDays: ctx.config.rememberBrowserDays,
    };
    reply.header('cache-control', 'no-store');
    return { message: TWO_FACTOR_MESSAGES.status, data };
  });
};
