import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { MESSAGES } from '../messages';
import { toFolderWire } from './folder-wire';

/** GET /api/folders: the caller's folders, oldest first, names as ciphertexts. */
export const listFoldersRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.folders, async (request) => {
    const { user } = requireSession(request);
    const rows = await ctx.repos.folders.listByUser(user.id);
    return { message: MESSAGES.success, data: rows.map(toFolderWire) };
  });
};
