import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { sessionQueryKey, useSessionQuery } from '@/api/verify-session';
import { useUnlockedVault } from '@/lib/keyring-context';
import { logFailure } from '@/lib/log';
import { offlineCopyOf } from '@/lib/offline/opened-offline-registry';

/**
 * The header's signed-in flag: false until the session check answers "Success", or while the
 * vault is open from this device's offline copy (the server cannot be asked, and the person is
 * in their vault: the vault's links, not Sign In, are the way on). The check runs on mount and
 * again whenever the flag changes; a failed check is only logged and leaves the flag as it was.
 */
export function useSignedIn(): boolean {
  const queryClient = useQueryClient();
  const session = useSessionQuery();
  const vault = useUnlockedVault();
  const openedOffline = vault !== null && offlineCopyOf(vault.vaultKey) !== undefined;
  const signedIn = (session.data?.signedIn ?? false) || openedOffline;

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
