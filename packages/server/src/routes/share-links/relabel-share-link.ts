import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { routeInput } from '../../http/route-input';
import { MESSAGES } from '../messages';

/**
 * PUT /api/share-links/{id}/label: the owner's label, sealed again in the browser (a key
 * rotation re-seals each under the new vault key). Only a ciphertext is accepted, and only for
 * the caller's own link (404 for anyone else's id); the link itself does not change.
 */
export const relabelShareLinkRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(`${apiPaths.shareLinks}/:id/label`, async (request) => {
    const { user } = requireSession(request);
    const { params, body } = routeInput(request, 'relabel-share-link');
    if (!(await ctx.repos.shareLinks.relabelOwned(user.id, params.id, body.label))) {
      throw new HttpError(404, MESSAGES.shareLinkNotFound);
    }
    return { message: MESSAGES.shareLinkRelabelled };
  });
};
