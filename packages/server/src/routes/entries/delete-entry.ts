import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { storableRevision } from '../revision-input';
import { requireSession } from '../../auth/require-session';
import { changeEntry } from '../../vault/entry-writes';
import { trashedAtOfRequest, vaultStateOfRequest } from '../../vault/vault-state';
import { MESSAGES } from '../messages';
import { entryRefusalError, toEntryWire } from './entry-wire';

/**
 * DELETE /api/passwords/delete/{id}?revision=N moves the entry to Trash (the spec's delete:
 * the list keeps it, with `deletedAt`), only at the revision the client saw; a stale tab
 * gets 409 with the entry as it is now instead of deleting an edit it never saw. The
 * version before the move goes to history. Another account's entry is "not found". With
 * `x-lockit-trashed-at` the entry is in Trash since that time, as the browser sealed it.
 */
export const deleteEntryRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.deleteEntry('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const { params, query } = routeInput(request, 'delete-entry');
    const id = params.id.toLowerCase();
    const revision = storableRevision(query.revision);
    const vaultState = vaultStateOfRequest(request);
    const trashedAt = trashedAtOfRequest(request);
    const result = await changeEntry(ctx, user.id, id, revision, { kind: 'trash', trashedAt }, vaultState);
    if (result.outcome !== 'updated') throw entryRefusalError(result, MESSAGES.entryAlreadyInTrash);
    return { message: MESSAGES.entryTrashed, data: toEntryWire(result.entry) };
  });
};
