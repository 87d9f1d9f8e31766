import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';
import { discardShareFiles } from '../../share-links/share-file-service';

/**
 * DELETE /api/share-links/{id}: the owner deletes a link and its ciphertext at once (also when
 * share links are off, so links made before can still be withdrawn); 404 for anyone else's id.
 * A shared file's bytes go with it.
 */
export const revokeShareLinkRoute: RoutePlugin = async (app, { ctx }) => {
  app.delete(`${apiPaths.shareLinks}/:id`, async (request) => {
    const { user } = requireSession(request);
    const { id } = routeInput(request, 'revoke-share-link').params;
    if (!(await ctx.repos.shareLinks.deleteOwned(user.id, id))) throw new HttpError(404, MESSAGES.shareLinkNotFound);
    await discardShareFiles(ctx, [{ userId: user.id, id }]);
    return { message: MESSAGES.shareLinkRevoked };
  });
};
