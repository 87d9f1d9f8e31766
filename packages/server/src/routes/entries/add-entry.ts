import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { isUniqueViolation } from '../../db/create-database';
import type { EntryRow } from '../../db/repositories/entries-repository';
import { HttpError } from '../../http/http-error';
import { assertVaultRoom } from '../../vault/vault-quota';
import { applyVaultState, vaultStateOfRequest } from '../../vault/vault-state';
import { recordChanges } from '../../vault/change-log';
import { MESSAGES } from '../messages';
import { toEntryWire } from './entry-wire';

/**
 * POST /api/passwords/add. Every field must be a Lockit ciphertext (the schema refuses
 * plaintext), so nothing readable is ever stored. The id is the client's. The vault state
 * header is checked and stored in the same transaction (vault/vault-state.ts).
 */
export const addEntryRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.addEntry, async (request, reply) => {
    const { user } = requireSession(request);
    const { body } = routeInput(request, 'add-entry');
    const vaultState = vaultStateOfRequest(request);
    const at = ctx.now();
    const row: EntryRow = {
      id: body.id.toLowerCase(),
      user_id: user.id,
      service_name: body.serviceName,
      username: body.username,
      password: body.password,
      url: body.url ?? null,
      notes: body.notes ?? null,
      overview: body.overview ?? null,
      details: body.details ?? null,
      revision: 1,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    };
    try {
      const notice = await ctx.db.transaction().execute(async (trx) => {
        await ctx.repos.entries.insert(row, trx);
        await applyVaultState(ctx, trx, user.id, vaultState);
        await assertVaultRoom(ctx, user.id, trx);
        return recordChanges(ctx, trx, user.id, { entries: [row.id] });
      });
      ctx.live.notify(user.id, notice);
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, MESSAGES.entryIdTaken);
      throw error;
    }
    return reply.code(201).send({ message: MESSAGES.entryAdded, data: toEntryWire(row) });
  });
};
