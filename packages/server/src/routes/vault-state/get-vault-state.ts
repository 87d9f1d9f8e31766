import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError, SIGN_IN_REQUIRED } from '../../http/http-error';
import { MESSAGES } from '../messages';

/**
 * GET /api/vault/state: the caller's vault state as the browser last stored it (null: none
 * yet) and the vault revision it belongs to, read together (decision 0053).
 */
export const getVaultStateRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.vaultState, async (request) => {
    const { user } = requireSession(request);
    const stored = await ctx.repos.vaultState.find(user.id);
    if (!stored) throw new HttpError(401, SIGN_IN_REQUIRED);
    return { message: MESSAGES.success, data: { state: stored.state, vaultRevision: stored.vaultRevision } };
  });
};
