import { apiPaths } from '@lockit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { markSignedOut } from '@/api/session-cache';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';
import { useKeyring } from '@/lib/keyring-context';
import { deviceMemory } from '@/lib/device-memory';
import { eraseOfflineCopies } from '@/lib/offline/offline-copies';

/** DELETE /api/users/delete-account: the account, its entries, codes and sessions. Any 2xx is success. */
export async function deleteAccount(): Promise<void> {
  await apiRequest(apiPaths.deleteAccount, { method: 'DELETE', schema: anyResponse, protectedCall: true });
}

/**
 * On success the vault is locked, the app forgets the session, and this browser forgets the
 * account's remembered key settings and generation: the name is free for a new account, whose
 * first key must not be refused as a rollback of the deleted one's. The offline copy of the
 * deleted vault is erased.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const keyring = useKeyring();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: async () => {
      // The account this browser signed in as, never the name the server shows.
      const account = keyring.vault?.account ?? (await deviceMemory.sessionAccount());
      keyring.clear();
      markSignedOut(queryClient);
      await eraseOfflineCopies({ queuedWrites: true });
      if (account !== null) await deviceMemory.forgetAccount(account);
    },
  });
}
