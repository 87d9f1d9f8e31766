import { apiPaths } from '@lockit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { markSignedOut } from '@/api/session-cache';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';
import { useKeyring } from '@/lib/keyring-context';
import { forgetRememberedKdfParams } from '@/lib/kdf-memory';
import { forgetRememberedKeyGeneration } from '@/lib/key-generation-memory';
import { forgetRememberedVaultCounter } from '@/lib/vault-counter-memory';

/** DELETE /api/users/delete-account: the account, its entries, codes and sessions. Any 2xx is success. */
export async function deleteAccount(): Promise<void> {
  await apiRequest(apiPaths.deleteAccount, { method: 'DELETE', schema: anyResponse, protectedCall: true });
}

/**
 * On success the vault is locked, the app forgets the session, and this browser forgets the
 * account's remembered key settings and generation: the name is free for a new account, whose
 * first key must not be refused as a rollback of the deleted one's.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const keyring = useKeyring();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: async () => {
      const username = keyring.vault?.username;
      keyring.clear();
      markSignedOut(queryClient);
      if (username !== undefined) {
        await Promise.all([
          forgetRememberedKdfParams(username),
          forgetRememberedKeyGeneration(username),
          forgetRememberedVaultCounter(username),
        ]);
      }
    },
  });
}
