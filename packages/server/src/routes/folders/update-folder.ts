import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { applyVaultState, vaultStateOfRequest } from '../../vault/vault-state';
import { recordChanges } from '../../vault/change-log';
import { MESSAGES } from '../messages';
import { storableRevision } from '../revision-input';
import { folderRefusalError, toFolderWire } from './folder-wire';

/**
 * PUT /api/folders/{id} `{ name, revision }`: renames (or moves, since nesting is in the
 * name) only at that revision; 409 with the folder as it is now otherwise. Another
 * account's folder is "not found".
 */
export const updateFolderRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(`${apiPaths.folder('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const { params, body } = routeInput(request, 'update-folder');
    const id = params.id.toLowerCase();
    const revision = storableRevision(body.revision);
    const vaultState = vaultStateOfRequest(request);
    const { row, notice } = await ctx.db.transaction().execute(async (trx) => {
      const outcome = await ctx.repos.folders.rename(user.id, id, revision, body.name, ctx.now(), trx);
      if (outcome !== 'updated') throw folderRefusalError(await ctx.repos.folders.find(user.id, id, trx));
      await applyVaultState(ctx, trx, user.id, vaultState);
      const changed = await recordChanges(ctx, trx, user.id, { folders: [id] });
      return { row: await ctx.repos.folders.find(user.id, id, trx), notice: changed };
    });
    ctx.live.notify(user.id, notice);
    if (!row) throw new HttpError(404, MESSAGES.folderNotFound);
    return { message: MESSAGES.folderRenamed, data: toFolderWire(row) };
  });
};
