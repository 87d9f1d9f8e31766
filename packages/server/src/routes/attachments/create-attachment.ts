import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { routeInput } from '../../http/route-input';
import { attachmentWire, createAttachment } from '../../attachments/attachment-service';
import { ATTACHMENT_MESSAGES } from '../../attachments/attachment-messages';

/** POST /api/attachments/{entryId}: starts an upload, or 413 past the file's or the account's limit. */
export const createAttachmentRoute: RoutePlugin = async (app, { ctx }) => {
  app.post('/api/attachments/:entryId', async (request, reply) => {
    const { user } = requireSession(request);
    const { params, body } = routeInput(request, 'create-attachment');
    const row = await createAttachment(ctx, user.id, params.entryId.toLowerCase(), { ...body, id: body.id.toLowerCase() });
    return reply.code(201).send({ message: ATTACHMENT_MESSAGES.started, data: attachmentWire(row) });
  });
};
