import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import type { EntryFields } from '../../db/repositories/entries-repository';
import { HttpError } from '../../http/http-error';
import { changeEntry } from '../../vault/entry-writes';
import { vaultStateOfRequest } from '../../vault/vault-state';
import { MESSAGES } from '../messages';
import { storableRevision } from '../revision-input';
import { entryRefusalError, toEntryWire } from './entry-wire';

/**
 * PUT /api/passwords/update-password/{id}. Replaces the ciphertexts and bumps the revision,
 * only if the entry is still at the `revision` the body names (required: no last writer
 * wins); otherwise 409 with the entry as it is now. The replaced version goes to history.
 * `url`, `notes`, `overview` and `details` left out are kept; null clears them. A trashed
 * entry can be edited and stays in Trash. Another account's entry is "not found".
 */
export const updateEntryRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(`${apiPaths.updateEntry('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const { params, body } = routeInput(request, 'update-entry');
    const id = params.id.toLowerCase();
    const revision = storableRevision(body.revision);
    const vaultState = vaultStateOfRequest(request);
    for (const bodyId of [body.id, body._id]) {
      if (bodyId !== undefined && bodyId.toLowerCase() !== id) throw new HttpError(400, MESSAGES.entryIdMismatch);
    }
    const fields: Partial<EntryFields> = {
      service_name: body.serviceName,
      username: body.username,
      password: body.password,
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.notes !== undefined ? { notes: body.notes } : {}),
      ...(body.overview !== undefined ? { overview: body.overview } : {}),
      ...(body.details !== undefined ? { details: body.details } : {}),
    };
    const result = await changeEntry(ctx, user.id, id, revision, { kind: 'update', fields }, vaultState);
    // An edit applies in and out of Trash, so the only refusals are 404 and a stale revision.
    if (result.outcome !== 'updated') throw entryRefusalError(result, MESSAGES.entryChangedElsewhere);
    return { message: MESSAGES.entryUpdated, data: toEntryWire(result.entry) };
  });
};
