import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { loadSignedInUser, requireSession } from '../../auth/require-session';
import { verifyAuthKey } from '../../auth/password-hashing';
import { HttpError } from '../../http/http-error';
import { startKeyRotation } from '../../vault/key-rotation-staging';
import { MESSAGES } from '../messages';
import { KEY_ROTATION_MESSAGES } from './key-rotation-messages';

/**
 * POST /api/user/key-rotation `{ authKey, vaultRevision }` (decision 0054): starts a
 * rotation of the caller's vault key. The current password's auth key is checked as change
 * password checks it (the same hashing queue, the same per-account limit, the same 403: a
 * 401 would read as a lost session), and the vault must still be at the revision the browser
 * read it at. 201 `{ id, keyGeneration (the current one), expiresAt }`.
 */
export const startKeyRotationRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.keyRotation, async (request, reply) => {
    const { sessionId } = requireSession(request);
    const user = await loadSignedInUser(request, ctx.repos.users);
    const { body } = routeInput(request, 'start-key-rotation');
    await ctx.rateLimits.beforePasswordCheck(user.id);
    if (!(await verifyAuthKey(user.auth_hash, body.authKey))) throw new HttpError(403, MESSAGES.currentPasswordIncorrect);
    await ctx.rateLimits.passwordCheckSucceeded(user.id);
    const started = await startKeyRotation(ctx, { userId: user.id, sessionId }, body.vaultRevision);
    if (started.outcome === 'vault-changed') throw new HttpError(409, KEY_ROTATION_MESSAGES.vaultChanged);
    const { rotation, keyGeneration } = started;
    return reply.code(201).send({
      message: KEY_ROTATION_MESSAGES.started,
      data: { id: rotation.id, keyGeneration, expiresAt: new Date(rotation.expires_at).toISOString() },
    });
  });
};
