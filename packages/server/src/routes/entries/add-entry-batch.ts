import { apiPaths, ENTRY_BATCH_MAX_BYTES } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { isUniqueViolation } from '../../db/create-database';
import type { EntryRow } from '../../db/repositories/entries-repository';
import { HttpError } from '../../http/http-error';
import { addImportBatch } from '../../vault/import-batches';
import { vaultStateOfRequest } from '../../vault/vault-state';
import { MESSAGES } from '../messages';

/**
 * POST /api/entries/batch (Lockit's own, decision 0036): up to ENTRY_BATCH_MAX_ENTRIES sealed
 * entries of one import, each exactly like the single add's body (every field a ciphertext,
 * the id the client's), stored in one transaction: all or nothing. A taken id, a duplicate
 * id in the call or a full vault refuses the whole call. Every call of an import names the
 * same `batchId`, which the undo takes.
 */
export const addEntryBatchRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.entryBatch, { bodyLimit: ENTRY_BATCH_MAX_BYTES }, async (request, reply) => {
    const { user } = requireSession(request);
    const { body } = routeInput(request, 'add-entry-batch');
    const vaultState = vaultStateOfRequest(request);
    const at = ctx.now();
    const batchId = body.batchId.toLowerCase();
    const rows: EntryRow[] = body.entries.map((entry) => ({
      id: entry.id.toLowerCase(),
      user_id: user.id,
      service_name: entry.serviceName,
      username: entry.username,
      password: entry.password,
      url: entry.url ?? null,
      notes: entry.notes ?? null,
      overview: entry.overview ?? null,
      details: entry.details ?? null,
      revision: 1,
      created_at: at,
      updated_at: at,
      deleted_at: null,
      import_batch: batchId,
    }));
    try {
      await addImportBatch(ctx, user.id, rows, vaultState);
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, MESSAGES.importEntryIdTaken);
      throw error;
    }
    return reply.code(201).send({ message: MESSAGES.entriesImported, data: { batchId, added: rows.length } });
  });
};
