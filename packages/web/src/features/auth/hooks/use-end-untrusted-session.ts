import { useQueryClient } from '@tanstack/react-query';
import { logout } from '@/api/logout';
import { markSignedOut } from '@/api/session-cache';
import { useKeyring } from '@/lib/keyring-context';
import { logFailure, logInfo } from '@/lib/log';

/**
 * What to do when sign-in succeeded but the key data did not verify: lock everything at once
 * (the keyring is cleared before anything is awaited), then end that session on the server and
 * mark this tab signed out. `failure` names the failed unlock in the log.
 */
export function useEndUntrustedSession(failure: string): () => void {
  const keyring = useKeyring();
  const queryClient = useQueryClient();
  return () => {
    keyring.clear();
    logout().then(
      (message) => {
        logInfo(`Logout after ${failure}`, message);
        markSignedOut(queryClient);
      },
      (error: unknown) => logFailure(`Logout after ${failure}`, error),
    );
  };
}
