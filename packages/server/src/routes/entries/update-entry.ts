import { apiPaths, updateEntryRequestSchema } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireAuth } from '../../auth/auth-plugin';
import type { EntryFields } from '../../db/repositories/entries-repository';
import { HttpError } from '../../http/http-error';
import { parseBody } from '../../http/parse-body';
import { MESSAGES } from '../messages';
import { entryIdFromParams, toEntryWire } from './entry-wire';

/**
 * PUT /api/passwords/update-password/{id}. Replaces the ciphertexts and bumps the revision;
 * with `revision`, applies only if nobody changed the entry since (409 otherwise). `url` and
 * `notes` left out are kept; null clears them. Another account's entry is "not found".
 */
export const updateEntryRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(`${apiPaths.updateEntry('')}:id`, async (request) => {
    const { user } = requireAuth(request);
    const id = entryIdFromParams(request.params);
    const body = parseBody(updateEntryRequestSchema, request.body);
    for (const bodyId of [body.id, body._id]) {
      if (bodyId !== undefined && bodyId.toLowerCase() !== id) throw new HttpError(400, MESSAGES.entryIdMismatch);
    }
    const fields: Partial<EntryFields> = {
      service_name: body.serviceName,
      username: body.username,
      password: body.password,
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.notes !== undefined ? { notes: body.notes } : {}),
    };
    const row = await ctx.db.transaction().execute(async (trx) => {
      const outcome = await ctx.repos.entries.update(user.id, id, fields, body.revision, ctx.now(), trx);
      if (outcome === 'not-found') throw new HttpError(404, MESSAGES.entryNotFound);
      if (outcome === 'revision-mismatch') throw new HttpError(409, MESSAGES.entryChangedElsewhere);
      await ctx.repos.users.bumpVaultRevision(user.id, trx);
      return ctx.repos.entries.find(user.id, id, trx);
    });
    if (!row) throw new HttpError(404, MESSAGES.entryNotFound);
    return { message: MESSAGES.entryUpdated, data: toEntryWire(row) };
  });
};
