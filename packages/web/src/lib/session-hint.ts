import { SESSION_HINT_COOKIE } from '@lockit/contract/paths';
import { apiBaseUrl } from '@/config/env';

/**
 * False only when this browser surely has no session: the server sets its hint cookie
 * (SESSION_HINT_COOKIE, readable by scripts, no token in it) with the session cookies, for
 * as long as the refresh cookie lives, and clears it with them. Calls that need a session
 * are then not sent, so a signed-out visit makes no request that can only answer 401.
 *
 * A wrong hint costs nothing but a call: present without a session, the server answers 401
 * as before and clears it. With the API on another origin its cookies are not ours to read,
 * so there the answer is always "maybe" and every call is sent.
 */
export function maybeSignedIn(): boolean {
  if (!apiOnThisOrigin()) return true;
  return document.cookie.split(';').some((cookie) => cookie.trim() === `${SESSION_HINT_COOKIE}=1`);
}

function apiOnThisOrigin(): boolean {
  if (apiBaseUrl === '') return true;
  try {
    return new URL(apiBaseUrl).origin === window.location.origin;
  } catch {
    return false;
  }
}
