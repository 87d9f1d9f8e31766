import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { routeInput } from '../../http/route-input';
import { attachmentWire, finishAttachment } from '../../attachments/attachment-service';
import { ATTACHMENT_MESSAGES } from '../../attachments/attachment-messages';

/** POST /api/attachments/{entryId}/{id}/finish: the file is listed once every byte announced arrived. */
export const finishAttachmentRoute: RoutePlugin = async (app, { ctx }) => {
  app.post('/api/attachments/:entryId/:id/finish', async (request) => {
    const { user } = requireSession(request);
    const { params } = routeInput(request, 'finish-attachment');
    const row = await finishAttachment(ctx, user.id, params.entryId.toLowerCase(), params.id.toLowerCase());
    return { message: ATTACHMENT_MESSAGES.finished, data: attachmentWire(row) };
  });
};
