import { apiPaths, KEY_ROTATION_PART_MAX_BYTES } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { stageKeyRotationPart } from '../../vault/key-rotation-staging';
import { KEY_ROTATION_MESSAGES } from './key-rotation-messages';

/**
 * PUT /api/user/key-rotation/{id}/parts: up to KEY_ROTATION_PART_MAX_ITEMS re-encrypted items
 * of each kind, in a body of at most KEY_ROTATION_PART_MAX_BYTES (a route option, as for the
 * import batch). Only the rotation's own user and session reach it; expired or anyone
 * else's: 404. All or nothing (see stageKeyRotationPart); answers the counts staged so far.
 */
export const stageKeyRotationPartRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(`${apiPaths.keyRotation}/:id/parts`, { bodyLimit: KEY_ROTATION_PART_MAX_BYTES }, async (request) => {
    const { user, sessionId } = requireSession(request);
    const { params, body } = routeInput(request, 'stage-key-rotation-part');
    const id = params.id.toLowerCase();
    const staged = await stageKeyRotationPart(ctx, { userId: user.id, sessionId }, id, body);
    if (staged.outcome === 'not-found') throw new HttpError(404, KEY_ROTATION_MESSAGES.notFound);
    if (staged.outcome === 'vault-changed') throw new HttpError(409, KEY_ROTATION_MESSAGES.vaultChanged);
    const { entry, version, folder, document, attachment } = staged.counts;
    return {
      message: KEY_ROTATION_MESSAGES.staged,
      data: { entries: entry, versions: version, folders: folder, documents: document, attachments: attachment },
    };
  });
};
