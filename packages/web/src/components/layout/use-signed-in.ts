import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { sessionQueryKey, useSessionQuery } from '@/api/verify-session';
import { logFailure } from '@/lib/log';

/**
 * The header's signed-in flag: false until the session check answers "Success". The check
 * runs on mount and again whenever the flag changes; a failed check is only logged and
 * leaves the flag as it was.
 */
export function useSignedIn(): boolean {
  const queryClient = useQueryClient();
  const session = useSessionQuery();
  const signedIn = session.data?.signedIn ?? false;

  const { error, errorUpdatedAt } = session;
  useEffect(() => {
    if (error) logFailure('Session check', error);
  }, [error, errorUpdatedAt]);

  const previous = useRef(signedIn);
  useEffect(() => {
    if (previous.current === signedIn) return;
    previous.current = signedIn;
    void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  }, [signedIn, queryClient]);

  return signedIn;
}
