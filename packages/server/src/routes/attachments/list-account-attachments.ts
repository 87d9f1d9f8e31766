import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { attachmentWire } from '../../attachments/attachment-service';
import { ATTACHMENT_MESSAGES } from '../../attachments/attachment-messages';

/**
 * GET /api/attachments: every file of the account, uploads under way included, sealed as
 * stored (a key rotation re-wraps each one's key, so none may be left out).
 */
export const listAccountAttachmentsRoute: RoutePlugin = async (app, { ctx }) => {
  app.get('/api/attachments', async (request) => {
    const { user } = requireSession(request);
    const rows = await ctx.repos.attachments.listOfUser(user.id);
    return {
      message: ATTACHMENT_MESSAGES.listed,
      data: rows.map((row) => ({ ...attachmentWire(row), finished: row.finished_at !== null })),
    };
  });
};
