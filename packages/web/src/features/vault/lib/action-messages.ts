import { ApiError, NetworkError, NoSessionError, UnexpectedResponseError } from '@/lib/api-errors';
import { VaultIntegrityRefusedError } from '@lockit/client-core';
import { EntryDraftError } from '@lockit/client-core';

/**
 * The plain sentence a failed change shows (non-blocking, beside the form or in the list):
 * what did not happen, why in words a person knows, and, for a form, that nothing typed was
 * lost. Never the server's stack or a status code alone.
 */
export function failureMessage(what: string, error: unknown, { keptInForm = false } = {}): string {
  const kept = keptInForm ? ' Your changes are still in the form.' : '';
  // After a failed whole-vault check: said as it is, the same for every change.
  if (error instanceof VaultIntegrityRefusedError) return `${error.message}${kept}`;
  if (error instanceof EntryDraftError) return `Could not ${what}: ${error.message}`;
  if (error instanceof NetworkError) return `Could not ${what}: you are offline or the server cannot be reached.${kept}`;
  if (error instanceof NoSessionError || (error instanceof ApiError && error.status === 401)) {
    return `Could not ${what}: your session has ended. Sign in again in another tab, then try again.${kept}`;
  }
  if (error instanceof ApiError && error.status >= 500)
    return `Could not ${what}: the server had a problem. Try again in a moment.${kept}`;
  if (error instanceof ApiError && error.status === 404) return `Could not ${what}: it is no longer on the server.`;
  if (error instanceof ApiError)
    return `Could not ${what}: ${error.serverMessage ?? `the server refused it (status ${error.status}).`}${kept}`;
  if (error instanceof UnexpectedResponseError)
    return `Could not ${what}: the server sent an answer Lockit does not understand.${kept}`;
  return `Could not ${what}: something went wrong.${kept}`;
}

export const CHANGED_ELSEWHERE = 'This entry was changed elsewhere since you opened it.';
export const NOT_SAVED_AFTER_CONFLICT = `Not saved: ${CHANGED_ELSEWHERE.charAt(0).toLowerCase()}${CHANGED_ELSEWHERE.slice(1)} Your changes are still in the form.`;
export const KEPT_NEWER_VERSION = 'Nothing was moved to Trash: you kept the version saved elsewhere.';
export const CURRENT_DAMAGED =
  'This entry was changed elsewhere, and the new version could not be decrypted. It is shown as damaged.';
