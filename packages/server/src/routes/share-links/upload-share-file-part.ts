import { ATTACHMENT_PART_MAX_BYTES } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';
import { storeShareFilePart } from '../../share-links/share-file-service';

const RAW = 'application/octet-stream';

/**
 * PUT /api/share-links/{id}/content?offset=N: appends one part of a shared file's sealed bytes
 * (decision 0081), raw and at most ATTACHMENT_PART_MAX_BYTES like an attachment's, so a part is
 * the most this route holds in memory. Only the link's owner, only while its upload is under
 * way; 403 when share links are off.
 */
export const uploadShareFilePartRoute: RoutePlugin = async (app, { ctx }) => {
  // This plugin is its own context: the raw parser reaches no other route.
  app.addContentTypeParser(RAW, { parseAs: 'buffer', bodyLimit: ATTACHMENT_PART_MAX_BYTES }, (_request, body, done) => {
    done(null, body);
  });
  app.put('/api/share-links/:id/content', { bodyLimit: ATTACHMENT_PART_MAX_BYTES }, async (request) => {
    const { user } = requireSession(request);
    const { params, query } = routeInput(request, 'upload-share-file-part');
    if (!ctx.config.shareLinks.enabled) throw new HttpError(403, MESSAGES.shareLinksOff);
    const body: unknown = request.body;
    if (!Buffer.isBuffer(body)) throw new HttpError(415, `A part is sent as ${RAW}.`);
    const received = await storeShareFilePart(ctx, user.id, params.id, query.offset, body);
    return { message: MESSAGES.shareFilePartStored, received };
  });
};
