import { addFolderRequestSchema, apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { isUniqueViolation } from '../../db/create-database';
import type { FolderRow } from '../../db/repositories/folders-repository';
import { HttpError } from '../../http/http-error';
import { parseBody } from '../../http/parse-body';
import { MESSAGES } from '../messages';
import { toFolderWire } from './folder-wire';

/**
 * POST /api/folders `{ id, name }`: the id is the client's (the name's ciphertext is bound to
 * it), the name a Lockit ciphertext (plaintext is refused). An id already taken, by any
 * account, is 409 and changes nothing.
 */
export const addFolderRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.folders, async (request, reply) => {
    const { user } = requireSession(request);
    const body = parseBody(addFolderRequestSchema, request.body);
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
      await ctx.db.transaction().execute(async (trx) => {
        await ctx.repos.folders.insert(row, trx);
        await ctx.repos.users.bumpVaultRevision(user.id, trx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, MESSAGES.folderIdTaken);
      throw error;
    }
    return reply.code(201).send({ message: MESSAGES.folderAdded, data: toFolderWire(row) });
  });
};
