import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { storableRevision } from '../revision-input';
import { requireSession } from '../../auth/require-session';
import { applyVaultState, vaultStateOfRequest } from '../../vault/vault-state';
import { recordChanges } from '../../vault/change-log';
import { MESSAGES } from '../messages';
import { folderRefusalError } from './folder-wire';

/**
 * DELETE /api/folders/{id}?revision=N: deletes the folder only at that revision (409 with
 * the folder as it is now otherwise). Entries name their folder inside their encrypted
 * overview, which the server cannot read, so it leaves them as they are: what an entry
 * naming a deleted folder shows is the client's to decide.
 */
export const deleteFolderRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.folder('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const { params, query } = routeInput(request, 'delete-folder');
    const id = params.id.toLowerCase();
    const revision = storableRevision(query.revision);
    const vaultState = vaultStateOfRequest(request);
    const notice = await ctx.db.transaction().execute(async (trx) => {
      const outcome = await ctx.repos.folders.delete(user.id, id, revision, trx);
      if (outcome !== 'deleted') throw folderRefusalError(await ctx.repos.folders.find(user.id, id, trx));
      await applyVaultState(ctx, trx, user.id, vaultState);
      return recordChanges(ctx, trx, user.id, { purgedFolders: [{ id, revision }] });
    });
    ctx.live.notify(user.id, notice);
    return { message: MESSAGES.folderDeleted };
  });
};
