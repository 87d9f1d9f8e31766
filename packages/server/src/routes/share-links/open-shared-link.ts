import type { OpenedShare } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';
import { isOpenable } from '../../share-links/share-file-service';
import { issueShareFileTicket, SHARE_FILE_TICKET_MS } from '../../share-links/share-file-ticket';

/**
 * POST /api/shared/{id}/open (public, rate-limited per address): uses one opening and answers
 * the sealed share. The count is one atomic UPDATE (share-links-repository.ts `takeOpening`),
 * so however many openings race, on however many processes, no more succeed than were allowed.
 * A link whose owner chose "delete after opening" is deleted by the opening that used its last.
 * A POST, so no preview or prefetch that only GETs can use an opening.
 *
 * A shared file's bytes are not in the answer: it carries a ticket (share-file-ticket.ts) that
 * lets this opening fetch them from POST /api/shared/{id}/file for a few minutes. A "delete after
 * opening" file link is then kept only until its last opening's ticket runs out (the download
 * deletes it when it ends, the expiry job otherwise).
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
      if (!known || !isOpenable(known)) throw new HttpError(404, MESSAGES.shareLinkNotFound);
      throw new HttpError(410, Number(known.expires_at) <= now ? MESSAGES.shareLinkExpired : MESSAGES.shareLinkUsedUp);
    }
    const openingsLeft = Number(row.openings_left);
    const deleteNow = openingsLeft === 0 && Number(row.delete_after_opening) === 1;
    const data: OpenedShare = {
      id: row.id,
      ciphertext: row.ciphertext,
      keyCheck: row.key_check,
      passwordSalt: row.password_salt,
      openingsLeft,
    };
    if (row.file_size !== null) {
      data.file = {
        size: Number(row.file_size),
        ticket: issueShareFileTicket(ctx.config.serverSecret, id, now, openingsLeft === 0),
      };
      if (deleteNow) await ctx.repos.shareLinks.expireBy(id, now + SHARE_FILE_TICKET_MS);
    } else if (deleteNow) {
      await ctx.repos.shareLinks.deleteUsedUp(id);
    }
    return { message: MESSAGES.ok, data };
  });
};
