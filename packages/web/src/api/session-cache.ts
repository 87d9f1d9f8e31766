import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryKey, type SessionState } from './verify-session';

/**
 * After sign-out (logout, account deletion): forget everything cached for the old session
 * and set the header's signed-in flag to false at once.
 */
export function markSignedOut(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
  queryClient.setQueryData<SessionState>(sessionQueryKey, { signedIn: false });
}

/** After sign-in: drop the previous session's cache and ask the server for the new state. */
export async function refreshSignedIn(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}
