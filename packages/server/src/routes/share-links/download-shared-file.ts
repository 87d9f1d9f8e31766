import { Readable } from 'node:stream';
import type { AppContext, RoutePlugin } from '../../app-context';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';
import { discardShareFiles, isOpenable } from '../../share-links/share-file-service';
import { checkShareFileTicket } from '../../share-links/share-file-ticket';

/**
 * POST /api/shared/{id}/file (public, rate-limited per address): a shared file's sealed bytes,
 * streamed from the store (never whole in memory), for the ticket an opening gave. It takes no
 * opening of its own and gives nothing without a ticket (403), so the openings counted are the
 * downloads allowed. A POST, so nothing that only GETs fetches it. The browser checks every chunk.
 *
 * When the ticket came from the opening that used a "delete after opening" link's last one,
 * the link and its bytes are deleted once all of them were read out.
 */
export const downloadSharedFileRoute: RoutePlugin = async (app, { ctx }) => {
  app.post('/api/shared/:id/file', { config: { public: true } }, async (request, reply) => {
    const { params, body } = routeInput(request, 'download-shared-file');
    const id = params.id;
    await ctx.rateLimits.hit('sharedLink', request.ip, id);
    if (!ctx.config.shareLinks.enabled) throw new HttpError(403, MESSAGES.shareLinksOff);
    const ticket = checkShareFileTicket(ctx.config.serverSecret, id, body.ticket, ctx.now());
    if (!ticket) throw new HttpError(403, MESSAGES.shareFileTicketRefused);
    const row = await ctx.repos.shareLinks.findSummary(id);
    if (!row || row.file_size === null || !isOpenable(row)) throw new HttpError(404, MESSAGES.shareLinkNotFound);
    const size = Number(row.file_size);
    const deleteAtEnd = ticket.last && Number(row.delete_after_opening) === 1;
    const bytes = readThenMaybeDelete(ctx, row.user_id, id, size, deleteAtEnd);
    return reply
      .type('application/octet-stream')
      .header('content-length', String(size))
      .header('cache-control', 'no-store')
      .send(Readable.from(bytes, { objectMode: false, highWaterMark: 64 * 1024 }));
  });
};

async function* readThenMaybeDelete(
  ctx: Pick<AppContext, 'attachments' | 'repos'>,
  userId: string,
  id: string,
  size: number,
  deleteAtEnd: boolean,
): AsyncGenerator<Buffer> {
  yield* ctx.attachments.shared.read(userId, id, size);
  if (!deleteAtEnd) return;
  await ctx.repos.shareLinks.deleteUsedUp(id);
  await discardShareFiles(ctx, [{ userId, id }]);
}
