import { Readable } from 'node:stream';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { routeInput } from '../../http/route-input';
import { requireAttachment } from '../../attachments/attachment-service';

/**
 * GET /api/attachments/{entryId}/{id}/content: the sealed content, streamed from the store
 * piece by piece (never the whole file in memory). The browser checks every chunk.
 */
export const downloadAttachmentRoute: RoutePlugin = async (app, { ctx }) => {
  app.get('/api/attachments/:entryId/:id/content', async (request, reply) => {
    const { user } = requireSession(request);
    const { params } = routeInput(request, 'download-attachment');
    const row = await requireAttachment(ctx, user.id, params.entryId.toLowerCase(), params.id.toLowerCase(), true);
    const size = Number(row.size);
    return (
      reply
        .type('application/octet-stream')
        .header('content-length', String(size))
        .header('cache-control', 'no-store')
        // Byte mode with a small mark: Readable.from's default (object mode, 16 pieces) would read up
        // to 16 rows ahead of a slow client.
        .send(Readable.from(ctx.attachments.read(user.id, row.id, size), { objectMode: false, highWaterMark: 64 * 1024 }))
    );
  });
};
