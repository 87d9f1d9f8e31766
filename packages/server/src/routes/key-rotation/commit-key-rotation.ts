import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { commitKeyRotation } from '../../vault/key-rotation-commit';
import type { PartKind } from '../../db/repositories/key-rotations-repository';
import { describeCounts } from '../../vault/key-rotation-parts';
import { vaultStateStale } from '../../vault/vault-state';
import { MESSAGES } from '../messages';
import { KEY_ROTATION_MESSAGES } from './key-rotation-messages';

/**
 * POST /api/user/key-rotation/{id}/commit `{ protectedKey, keyGeneration, keyEpoch, vaultState }`: swaps
 * the staged vault in, in one transaction (see commitKeyRotation), or answers why not and
 * changes nothing: 404 unknown or expired; 409 the vault changed since the start (the rotation
 * is gone: start again), the password changed (key generation; or the key epoch is not the next), the state is stale (code
 * 'vault-state-stale', like every write), or parts are missing ("incomplete: …").
 */
export const commitKeyRotationRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(`${apiPaths.keyRotation}/:id/commit`, async (request) => {
    const { user, sessionId } = requireSession(request);
    const { params, body } = routeInput(request, 'commit-key-rotation');
    const id = params.id.toLowerCase();
    const done = await commitKeyRotation(ctx, { userId: user.id, sessionId }, id, body);
    switch (done.outcome) {
      case 'not-found':
        throw new HttpError(404, KEY_ROTATION_MESSAGES.notFound);
      case 'vault-changed':
        throw new HttpError(409, KEY_ROTATION_MESSAGES.vaultChanged);
      case 'key-generation-conflict':
        throw new HttpError(409, MESSAGES.keyGenerationConflict);
      case 'vault-state-stale':
        throw vaultStateStale(done.state);
      case 'incomplete':
        throw new HttpError(409, incompleteMessage(done.missing, done.extra));
      case 'committed': {
        const { keyGeneration, vaultRevision, passkeyUnlocksRemoved, sessionsEnded } = done;
        return {
          message: KEY_ROTATION_MESSAGES.rotated,
          data: { keyGeneration, vaultRevision, passkeyUnlocksRemoved, sessionsEnded },
        };
      }
    }
  });
};

/** "The re-encrypted vault is incomplete: 12 entries, 3 versions missing. Nothing was changed." */
function incompleteMessage(missing: Record<PartKind, number>, extra: Record<PartKind, number>): string {
  const absent = describeCounts(missing);
  const unknown = describeCounts(extra);
  const said = [absent && `${absent} missing`, unknown && `${unknown} no longer in the vault`].filter(Boolean);
  return `The re-encrypted vault is incomplete: ${said.join('; ')}. Nothing was changed.`;
}
