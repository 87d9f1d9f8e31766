import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

/** PATCH /api/user/webauthn/{id}: renames one of the caller's credentials; 404 for anyone else's. */
export const renameWebauthnRoute: RoutePlugin = async (app, { ctx }) => {
  app.patch(`${apiPaths.webauthnCredential('')}:id`, async (request) => {
    const { user } = requireSession(request);
    const {
      params: { id },
      body,
    } = routeInput(request, 'webauthn-rename');
    if (!(await ctx.repos.webauthn.rename(user.id, id.toLowerCase(), body.name))) {
      throw new HttpError(404, WEBAUTHN_MESSAGES.notFound);
    }
    return { message: WEBAUTHN_MESSAGES.renamed };
  });
};
