import { apiPaths, parseVaultState } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError, SIGN_IN_REQUIRED } from '../../http/http-error';
import { vaultStateStale } from '../../vault/vault-state';
import { recordChanges } from '../../vault/change-log';
import { MESSAGES } from '../messages';

/**
 * PUT /api/vault/state `{ state }`: the first state of a vault that has none, made by the
 * browser from what it was served (decision 0053). Stored only while the vault has no state
 * and only with counter 1; otherwise 409 vault-state-stale with the stored state, and nothing
 * changes. Later states only ever come with the writes that change the vault.
 */
export const putVaultStateRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(apiPaths.vaultState, async (request) => {
    const { user } = requireSession(request);
    const { state } = routeInput(request, 'put-vault-state').body;
    const stored = await ctx.db.transaction().execute(async (trx) => {
      const saved = parseVaultState(state)!.counter === 1 && (await ctx.repos.vaultState.init(user.id, state, trx));
      const current = await ctx.repos.vaultState.find(user.id, trx);
      if (!current) throw new HttpError(401, SIGN_IN_REQUIRED);
      if (!saved) throw vaultStateStale(current.state);
      // No member changed, but the state did (and the revision with it): clients follow.
      return { ...current, notice: await recordChanges(ctx, trx, user.id, {}) };
    });
    ctx.live.notify(user.id, stored.notice);
    return { message: MESSAGES.vaultStateSaved, data: { state: stored.state, vaultRevision: stored.vaultRevision } };
  });
};
