import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { routeInput } from '../../http/route-input';
import { attachmentWire, renameAttachment } from '../../attachments/attachment-service';
import { ATTACHMENT_MESSAGES } from '../../attachments/attachment-messages';

/** PUT /api/attachments/{entryId}/{id}: new sealed metadata (a rename), same key and content. */
export const renameAttachmentRoute: RoutePlugin = async (app, { ctx }) => {
  app.put('/api/attachments/:entryId/:id', async (request) => {
    const { user } = requireSession(request);
    const { params, body } = routeInput(request, 'rename-attachment');
    const row = await renameAttachment(ctx, user.id, params.entryId.toLowerCase(), params.id.toLowerCase(), body.metadata);
    return { message: ATTACHMENT_MESSAGES.renamed, data: attachmentWire(row) };
  });
};
