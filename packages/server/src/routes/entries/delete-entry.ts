import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireAuth } from '../../auth/auth-plugin';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';
import { entryIdFromParams } from './entry-wire';

/** DELETE /api/passwords/delete/{id}. Another account's entry is "not found". */
export const deleteEntryRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.deleteEntry('')}:id`, async (request) => {
    const { user } = requireAuth(request);
    const id = entryIdFromParams(request.params);
    const deleted = await ctx.db.transaction().execute(async (trx) => {
      if (!(await ctx.repos.entries.delete(user.id, id, trx))) return false;
      await ctx.repos.users.bumpVaultRevision(user.id, trx);
      return true;
    });
    if (!deleted) throw new HttpError(404, MESSAGES.entryNotFound);
    return { message: MESSAGES.entryDeleted };
  });
};
