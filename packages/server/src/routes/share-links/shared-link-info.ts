import type { SharedLinkInfo } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';
import { isOpenable } from '../../share-links/share-file-service';

/**
 * GET /api/shared/{id} (public, rate-limited per address): whether a share can still be opened
 * and its password salt. It uses no opening and returns no ciphertext, so the recipient's page
 * (and any link preview that loads it) costs nothing until the person clicks.
 */
export const sharedLinkInfoRoute: RoutePlugin = async (app, { ctx }) => {
  app.get('/api/shared/:id', { config: { public: true } }, async (request) => {
    const { id } = routeInput(request, 'shared-link-info').params;
    await ctx.rateLimits.hit('sharedLink', request.ip, id);
    if (!ctx.config.shareLinks.enabled) throw new HttpError(403, MESSAGES.shareLinksOff);
    const row = await ctx.repos.shareLinks.findSummary(id);
    // A file still uploading is not there yet for the recipient.
    if (!row || !isOpenable(row)) throw new HttpError(404, MESSAGES.shareLinkNotFound);
    const expired = Number(row.expires_at) <= ctx.now();
    const data: SharedLinkInfo = {
      id: row.id,
      status: expired ? 'expired' : Number(row.openings_left) === 0 ? 'used-up' : 'available',
      passwordSalt: row.password_salt,
      expiresAt: new Date(Number(row.expires_at)).toISOString(),
    };
    return { message: MESSAGES.ok, data };
  });
};
