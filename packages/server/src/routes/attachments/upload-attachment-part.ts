import { ATTACHMENT_PART_MAX_BYTES } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { storePart } from '../../attachments/attachment-service';
import { ATTACHMENT_MESSAGES } from '../../attachments/attachment-messages';

const RAW = 'application/octet-stream';

/**
 * PUT /api/attachments/{entryId}/{id}/content?offset=N: appends one part of sealed bytes. The
 * body is raw (`application/octet-stream`, accepted by this route only) and at most
 * ATTACHMENT_PART_MAX_BYTES, so a part is the most this route holds in memory, whatever the
 * file's size.
 */
export const uploadAttachmentPartRoute: RoutePlugin = async (app, { ctx }) => {
  // This plugin is its own context: the raw parser reaches no other route.
  app.addContentTypeParser(RAW, { parseAs: 'buffer', bodyLimit: ATTACHMENT_PART_MAX_BYTES }, (_request, body, done) => {
    done(null, body);
  });
  app.put('/api/attachments/:entryId/:id/content', { bodyLimit: ATTACHMENT_PART_MAX_BYTES }, async (request) => {
    const { user } = requireSession(request);
    const { params, query } = routeInput(request, 'upload-attachment-part');
    const body: unknown = request.body;
    if (!Buffer.isBuffer(body)) throw new HttpError(415, `A part is sent as ${RAW}.`);
    const received = await storePart(ctx, user.id, params.entryId.toLowerCase(), params.id.toLowerCase(), query.offset, body);
    return { message: ATTACHMENT_MESSAGES.partStored, received };
  });
};
