import { apiPaths, SESSION_VALID_MESSAGE } from '@lockit/contract/paths';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-errors';

export interface SessionState {
  signedIn: boolean;
  /** The session's account, when the server names it (the vault's Unlock form shows it). */
  username?: string;
}

export const sessionQueryKey = ['session'] as const;

/**
 * POST /api/users/verify: the session check. Signed in only when the server answers with the
 * message "Success". A 401 (after one refresh attempt, or without a call when the browser
 * surely has no session: see session-hint.ts) is a clear "no session" answer; any
 * other failure (network, 5xx, 429) rejects, so callers can keep their previous state.
 */
export async function verifySession(): Promise<SessionState> {
  try {
    const answer = await apiRequest(apiPaths.verifySession, {
      method: 'POST',
      schema: (contract) => contract.verifySessionResponseSchema,
      protectedCall: true,
    });
    return { signedIn: answer.message === SESSION_VALID_MESSAGE, username: answer.data?.username };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { signedIn: false };
    throw error;
  }
}

/**
 * The shared session check (header, vault). Data stays at its last value when a check
 * fails, which is what "failures change nothing" asks of the header.
 */
export function useSessionQuery() {
  return useQuery({ queryKey: sessionQueryKey, queryFn: verifySession });
}
