import type { OpenedShare } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';

/**
 * POST /api/shared/{id}/open (public, rate-limited per address): uses one opening and answers
 * the sealed share. The count is one atomic UPDATE (share-links-repository.ts `takeOpening`),
 * so however many openings race, on however many processes, no more succeed than were allowed.
 * A link whose owner chose "delete after opening" is deleted by the opening that used its last.
 * A POST, so no preview or prefetch that only GETs can use an opening.
 */
export const openSharedLinkRoute: RoutePlugin = async (app, { ctx }) => {
  app.post('/api/shared/:id/open', { config: { public: true } }, async (request) => {
    const { id } = routeInput(request, 'open-shared-link').params;
    await ctx.rateLimits.hit('sharedLink', request.ip, id);
    if (!ctx.config.shareLinks.enabled) throw new HttpError(403, MESSAGES.shareLinksOff);
    const now = ctx.now();
    const row = await ctx.repos.shareLinks.takeOpening(id, now);
    if (!row) {
      const known = await ctx.repos.shareLinks.findSummary(id);
      if (!known) throw new HttpError(404, MESSAGES.shareLinkNotFound);
      throw new HttpError(410, Number(known.expires_at) <= now ? MESSAGES.shareLinkExpired : MESSAGES.shareLinkUsedUp);
    }
    const openingsLeft = Number(row.openings_left);
    if (openingsLeft === 0 && Number(row.delete_after_opening) === 1) await ctx.repos.shareLinks.deleteUsedUp(id);
    const data: OpenedShare = {
      id: row.id,
      ciphertext: row.ciphertext,
      keyCheck: row.key_check,
      passwordSalt: row.password_salt,
      openingsLeft,
    };
    return { message: MESSAGES.ok, data };
  });
};
