import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { storableRevision } from '../revision-input';
import { requireSession } from '../../auth/require-session';
import { purgeEntry } from '../../vault/entry-writes';
import { vaultStateOfRequest } from '../../vault/vault-state';
import { MESSAGES } from '../messages';
import { entryRefusalError } from './entry-wire';

/**
 * DELETE /api/passwords/purge/{id}?revision=N deletes a trashed entry and its history for
 * good, with its attachments. A live entry is refused (409: Trash first), so one stale click cannot destroy an
 * entry; so is a stale revision. Another account's entry is "not found". It carries the vault
 * state after it, like every write of the vault's set (Trash is in it, decision 0061).
 */
export const purgeEntryRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.purgeEntry('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const { params, query } = routeInput(request, 'purge-entry');
    const id = params.id.toLowerCase();
    const revision = storableRevision(query.revision);
    const vaultState = vaultStateOfRequest(request);
    const result = await purgeEntry(ctx, user.id, id, revision, vaultState);
    if (result.outcome !== 'purged') throw entryRefusalError(result, MESSAGES.entryNotTrashedYet);
    await ctx.attachments.discard(user.id, result.attachmentIds);
    return { message: MESSAGES.entryPurged };
  });
};
