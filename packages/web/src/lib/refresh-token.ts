import { apiPaths } from '@lockit/contract/paths';
import { anyResponse } from './any-response';
import { NoSessionError } from './api-errors';
import { loadContract } from './contract';
import { send } from './http';
import { maybeSignedIn } from './session-hint';

let inFlight: Promise<string> | null = null;

/**
 * POST /api/users/refresh-token: trades the refresh cookie for a fresh access cookie.
 * Concurrent callers share one request, because the server rotates the refresh token and a
 * second use of the old one would end the whole session family. Any 2xx is success and
 * resolves with the server's message; rejects with ApiError (e.g. 401: no session),
 * NoSessionError (surely no session, so not sent) or NetworkError.
 */
export function refreshToken(): Promise<string> {
  if (!maybeSignedIn()) return Promise.reject(new NoSessionError());
  inFlight ??= (async () => {
    try {
      const answer = await send('POST', apiPaths.refreshToken);
      const parsed = anyResponse(await loadContract()).safeParse(answer.body);
      return (parsed.success && parsed.data.message) || 'Session refreshed.';
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}
