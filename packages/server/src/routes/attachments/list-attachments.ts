import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { routeInput } from '../../http/route-input';
import { attachmentWire, listAttachments } from '../../attachments/attachment-service';
import { ATTACHMENT_MESSAGES } from '../../attachments/attachment-messages';

/** GET /api/attachments/{entryId}: the entry's finished files (sealed), the account's usage and limits. */
export const listAttachmentsRoute: RoutePlugin = async (app, { ctx }) => {
  app.get('/api/attachments/:entryId', async (request) => {
    const { user } = requireSession(request);
    const { params } = routeInput(request, 'list-attachments');
    const { rows, usedBytes } = await listAttachments(ctx, user.id, params.entryId.toLowerCase());
    const { maxFileBytes, maxAccountBytes } = ctx.config.attachmentLimits;
    return {
      message: ATTACHMENT_MESSAGES.listed,
      data: rows.map(attachmentWire),
      usage: { usedBytes, maxFileBytes, maxAccountBytes },
    };
  });
};
