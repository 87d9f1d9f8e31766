import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { MESSAGES } from '../messages';
import { toShareLinkWire } from './share-link-wire';

/** GET /api/share-links: the caller's links not yet expired, used-up ones with 0 left, newest first. */
export const listShareLinksRoute: RoutePlugin = async (app, { ctx }) => {
  app.get(apiPaths.shareLinks, async (request) => {
    const { user } = requireSession(request);
    const rows = await ctx.repos.shareLinks.listLive(user.id, ctx.now());
    return { message: MESSAGES.ok, data: rows.map(toShareLinkWire) };
  });
};
