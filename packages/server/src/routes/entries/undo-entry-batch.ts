import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { undoImportBatch } from '../../vault/import-batches';
import { trashedAtOfRequest, vaultStateOfRequest } from '../../vault/vault-state';
import { MESSAGES } from '../messages';

/**
 * DELETE /api/entries/batch/{batchId} undoes a whole import in one transaction: entries never
 * changed since are deleted for good with their files, changed ones go to Trash (see import-batches.ts), and
 * the answer says how many of each (in Trash since `x-lockit-trashed-at` when given). Another
 * account's batch is "not found".
 */
export const undoEntryBatchRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.entryBatchUndo('')}:batchId`, async (request) => {
    const { user } = requireSession(request);
    const batchId = routeInput(request, 'undo-entry-batch').params.batchId.toLowerCase();
    const vaultState = vaultStateOfRequest(request);
    const trashedAt = trashedAtOfRequest(request);
    const result = await undoImportBatch(ctx, user.id, batchId, vaultState, trashedAt);
    if (result.outcome === 'not-found') throw new HttpError(404, MESSAGES.importNotFound);
    await ctx.attachments.discard(user.id, result.attachmentIds);
    return { message: MESSAGES.importUndone, data: { purged: result.purged, trashed: result.trashed } };
  });
};
