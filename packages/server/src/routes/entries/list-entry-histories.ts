import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { MESSAGES } from '../messages';
import { toEntryVersionWire } from './entry-wire';

/**
 * POST /api/entries/histories (Lockit's own, decision 0041): the histories of up to
 * ENTRY_HISTORIES_MAX_IDS entries in one call. The export reads the earlier versions of
 * hundreds of items, and one request each cost about 1.5 s at 10,000 items. A POST because
 * 500 ids do not fit a URL; it changes nothing.
 *
 * Each item is exactly what GET /api/passwords/history/{id} answers for that id (newest
 * first, at most HISTORY_LIMIT), in the order asked. An id of no entry of this account
 * (another account's, or unknown) is left out, as the single call answers "not found":
 * both queries name the session's user, so another account's history is never read.
 * Two queries whatever the number of ids.
 */
export const listEntryHistoriesRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.entryHistories, async (request) => {
    const { user } = requireSession(request);
    const ids = routeInput(request, 'entry-histories').body.ids.map((id) => id.toLowerCase());
    const own = new Set(await ctx.repos.entries.findIds(user.id, ids));
    const asked = ids.filter((id) => own.has(id));
    const versions = await ctx.repos.history.listByEntries(user.id, asked, ctx.config.historyLimit);
    const data = asked.map((id) => ({ id, versions: (versions.get(id) ?? []).map(toEntryVersionWire) }));
    return { message: MESSAGES.success, data };
  });
};
