import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { changeEntry } from '../../vault/entry-writes';
import { vaultStateOfRequest } from '../../vault/vault-state';
import { MESSAGES } from '../messages';
import { storableRevision } from '../revision-input';
import { entryRefusalError, toEntryWire } from './entry-wire';

/**
 * POST /api/passwords/restore/{id} `{ revision }`: brings a trashed entry back to the list,
 * only at that revision (409 with the entry as it is now otherwise, or when it is not in
 * Trash). The version before goes to history. Another account's entry is "not found".
 */
export const restoreEntryRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(`${apiPaths.restoreEntry('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const { params, body } = routeInput(request, 'restore-entry');
    const id = params.id.toLowerCase();
    const revision = storableRevision(body.revision);
    const vaultState = vaultStateOfRequest(request);
    const result = await changeEntry(ctx, user.id, id, revision, { kind: 'restore' }, vaultState);
    if (result.outcome !== 'updated') throw entryRefusalError(result, MESSAGES.entryNotInTrash);
    return { message: MESSAGES.entryRestored, data: toEntryWire(result.entry) };
  });
};
