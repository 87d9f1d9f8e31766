import { apiPaths, restoreEntryRequestSchema } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { parseBody } from '../../http/parse-body';
import { changeEntry } from '../../vault/entry-writes';
import { vaultStateOfRequest } from '../../vault/vault-state';
import { MESSAGES } from '../messages';
import { storableRevision } from '../revision-input';
import { entryIdFromParams, entryRefusalError, toEntryWire } from './entry-wire';

/**
 * POST /api/passwords/restore/{id} `{ revision }`: brings a trashed entry back to the list,
 * only at that revision (409 with the entry as it is now otherwise, or when it is not in
 * Trash). The version before goes to history. Another account's entry is "not found".
 */
export const restoreEntryRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(`${apiPaths.restoreEntry('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const id = entryIdFromParams(request.params);
    const revision = storableRevision(parseBody(restoreEntryRequestSchema, request.body).revision);
    const vaultState = vaultStateOfRequest(request);
    const result = await changeEntry(ctx, user.id, id, revision, { kind: 'restore' }, vaultState);
    if (result.outcome !== 'updated') throw entryRefusalError(result, MESSAGES.entryNotInTrash);
    return { message: MESSAGES.entryRestored, data: toEntryWire(result.entry) };
  });
};
