import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';
import { toEntryVersionWire } from './entry-wire';

/**
 * GET /api/passwords/history/{id}: the entry's earlier versions, newest first, at most
 * HISTORY_LIMIT, ciphertexts as they were. Asked for on demand, never part of the list.
 * Another account's entry is "not found", history and all.
 */
export const listEntryHistoryRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(`${apiPaths.entryHistory('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const id = routeInput(request, 'entry-history').params.id.toLowerCase();
    if (!(await ctx.repos.entries.find(user.id, id))) throw new HttpError(404, MESSAGES.entryNotFound);
    const versions = await ctx.repos.history.listByEntry(user.id, id, ctx.config.historyLimit);
    return { message: MESSAGES.success, data: versions.map(toEntryVersionWire) };
  });
};
