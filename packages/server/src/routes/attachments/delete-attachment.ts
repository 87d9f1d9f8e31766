import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { routeInput } from '../../http/route-input';
import { deleteAttachment } from '../../attachments/attachment-service';
import { ATTACHMENT_MESSAGES } from '../../attachments/attachment-messages';

/** DELETE /api/attachments/{entryId}/{id}: the file (finished or an upload under way), for good. */
export const deleteAttachmentRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete('/api/attachments/:entryId/:id', async (request) => {
    const { user } = requireSession(request);
    const { params } = routeInput(request, 'delete-attachment');
    await deleteAttachment(ctx, user.id, params.entryId.toLowerCase(), params.id.toLowerCase());
    return { message: ATTACHMENT_MESSAGES.deleted };
  });
};
