import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError, SIGN_IN_REQUIRED } from '../../http/http-error';
import { sendVaultState } from '../../vault/vault-state';
import { MESSAGES } from '../messages';
import { toFolderWire } from './folder-wire';

/**
 * GET /api/folders: the caller's folders, oldest first, names as ciphertexts, with
 * `x-lockit-vault-state`: the state stored with exactly these folders, read in one snapshot
 * (repeatable read on PostgreSQL; SQLite runs one transaction at a time).
 */
export const listFoldersRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.folders, async (request, reply) => {
    const { user } = requireSession(request);
    const { rows, stored } = await ctx.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => ({
        stored: await ctx.repos.vaultState.find(user.id, trx),
        rows: await ctx.repos.folders.listByUser(user.id, trx),
      }));
    if (!stored) throw new HttpError(401, SIGN_IN_REQUIRED);
    sendVaultState(reply, stored.state);
    return { message: MESSAGES.success, data: rows.map(toFolderWire) };
  });
};
