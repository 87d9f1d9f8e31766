import { apiPaths } from '@lockit/contract/paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';
import { useKeyring } from '@/lib/keyring-context';
import { logFailure, logInfo } from '@/lib/log';
import { eraseOfflineCopies } from '@/lib/offline/offline-copies';
import { markSignedOut } from './session-cache';

/** POST /api/users/logout with an empty body; any 2xx is success (its data is only logged). */
export async function logout(): Promise<string> {
  const answer = await apiRequest(apiPaths.logout, { method: 'POST', schema: anyResponse });
  return answer.message ?? 'Logged out.';
}

/**
 * Logout as the header and profile use it. The vault is locked (keyring cleared) as soon as
 * the person asks, whatever the server says: locking is always safe. The signed-in flag
 * turns false only after the server confirmed; a failure is only logged. The device's offline
 * copy of the vault is erased at once too, before the server is asked: a person who logs out
 * leaves nothing of the vault on the device, whether or not the server answers: changes still
 * waiting to sync are erased with it.
 */
export function useLogout({ onSignedOut }: { onSignedOut?: () => void } = {}) {
  const queryClient = useQueryClient();
  const keyring = useKeyring();
  return useMutation({
    mutationFn: async () => {
      keyring.clear();
      await eraseOfflineCopies({ queuedWrites: true });
      return logout();
    },
    onSuccess: (message) => {
      logInfo('Logout', message);
      markSignedOut(queryClient);
      onSignedOut?.();
    },
    onError: (error) => logFailure('Logout', error),
  });
}
