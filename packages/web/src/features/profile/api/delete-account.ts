import { apiPaths } from '@lockit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { markSignedOut } from '@/api/session-cache';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';
import { useKeyring } from '@/lib/keyring-context';

/** DELETE /api/users/delete-account: the account, its entries, codes and sessions. Any 2xx is success. */
export async function deleteAccount(): Promise<void> {
  await apiRequest(apiPaths.deleteAccount, { method: 'DELETE', schema: anyResponse, protectedCall: true });
}

/** On success the vault is locked and the app forgets the session. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const keyring = useKeyring();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      keyring.clear();
      markSignedOut(queryClient);
    },
  });
}
