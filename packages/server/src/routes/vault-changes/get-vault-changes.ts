import { apiPaths, type VaultChangesWire } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { routeInput } from '../../http/route-input';
import { readChangesSince } from '../../vault/vault-changes';
import { toEntryWire } from '../entries/entry-wire';
import { toFolderWire } from '../folders/folder-wire';
import { MESSAGES } from '../messages';

/**
 * GET /api/vault/changes?since=N (Lockit's own, decision 0066): the entries and folders written
 * after change N in the list's wire form, the ids deleted for good since with their last
 * revision, the vault state stored with that vault and the cursor it is at; `since=0` is the
 * whole vault. A cursor the server cannot answer in full gets `{ reset: true, reason }`: read
 * the whole vault again. A malformed `since` is a 400 before anything is read.
 */
export const getVaultChangesRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.vaultChanges, async (request, reply) => {
    const { user } = requireSession(request);
    const { since } = routeInput(request, 'vault-changes').query;
    const read = await readChangesSince(ctx, user.id, since);
    const data: VaultChangesWire = read.reset
      ? read
      : {
          ...read,
          entries: read.entries.map(toEntryWire),
          folders: read.folders.map(toFolderWire),
        };
    reply.header('cache-control', 'no-store');
    return { message: MESSAGES.success, data };
  });
};
