import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';
import { finishShareFile } from '../../share-links/share-file-service';
import { toShareLinkWire } from './share-link-wire';

/** POST /api/share-links/{id}/finish: the owner ends a shared file's upload once all of it arrived; the link opens from then on. */
export const finishShareFileRoute: RoutePlugin = async (app, { ctx }) => {
  app.post('/api/share-links/:id/finish', async (request) => {
    const { user } = requireSession(request);
    const { params } = routeInput(request, 'finish-share-file');
    if (!ctx.config.shareLinks.enabled) throw new HttpError(403, MESSAGES.shareLinksOff);
    const row = await finishShareFile(ctx, user.id, params.id);
    return { message: MESSAGES.shareFileUploaded, data: toShareLinkWire(row) };
  });
};
