import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { HttpError } from '../../http/http-error';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';

/**
 * PUT /api/user/webauthn/{id}/unlock: stores the vault key wrapped under the key the
 * credential's PRF output gives, and the PRF input. The server cannot open it; it only hands it
 * back after that very credential signs in. Only on the caller's own credential (404 otherwise),
 * so nobody can plant an unlock key on someone else's passkey; and only while the account's vault
 * key is of the key epoch the wrap names (`keyEpoch`, absent: 0), else 409 and nothing stored: a
 * rotation committed since the browser read the key, so the wrap holds a key that is gone.
 */
export const setWebauthnUnlockKeyRoute: RoutePlugin = async (app, { ctx }) => {
  app.put(`${apiPaths.webauthnCredential('')}:id/unlock`, async (request) => {
    const { user } = requireSession(request);
    const {
      params: { id },
      body,
    } = routeInput(request, 'webauthn-unlock-key');
    const saved = await ctx.repos.webauthn.setUnlockKey(user.id, id.toLowerCase(), {
      key: body.unlockKey,
      salt: body.unlockSalt,
      keyEpoch: body.keyEpoch ?? 0,
    });
    if (saved === 'not-found') throw new HttpError(404, WEBAUTHN_MESSAGES.notFound);
    if (saved === 'stale-epoch') throw new HttpError(409, WEBAUTHN_MESSAGES.unlockKeyStale);
    return { message: WEBAUTHN_MESSAGES.unlockKeySaved };
  });
};
