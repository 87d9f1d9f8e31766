import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { isUniqueViolation } from '../../db/create-database';
import type { FolderRow } from '../../db/repositories/folders-repository';
import { HttpError } from '../../http/http-error';
import { applyVaultState, vaultStateOfRequest } from '../../vault/vault-state';
import { recordChanges } from '../../vault/change-log';
import { MESSAGES } from '../messages';
import { toFolderWire } from './folder-wire';

/**
 * POST /api/folders `{ id, name }`: the id is the client's (the name's ciphertext is bound to
 * it), the name a Lockit ciphertext (plaintext is refused). An id the account already has is
 * 409 and changes nothing; ids are per account (migration 0014), so another account's folder
 * never shows through. The vault state header is checked in the same transaction.
 */
export const addFolderRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.folders, async (request, reply) => {
    const { user } = requireSession(request);
    const { body } = routeInput(request, 'add-folder');
    const vaultState = vaultStateOfRequest(request);
    const at = ctx.now();
    const row: FolderRow = {
      id: body.id.toLowerCase(),
      user_id: user.id,
      name: body.name,
      revision: 1,
      created_at: at,
      updated_at: at,
    };
    try {
      const notice = await ctx.db.transaction().execute(async (trx) => {
        await ctx.repos.folders.insert(row, trx);
        await applyVaultState(ctx, trx, user.id, vaultState);
        return recordChanges(ctx, trx, user.id, { folders: [row.id] });
      });
      ctx.live.notify(user.id, notice);
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, MESSAGES.folderIdTaken);
      throw error;
    }
    return reply.code(201).send({ message: MESSAGES.folderAdded, data: toFolderWire(row) });
  });
};
