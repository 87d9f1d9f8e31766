import { apiPaths, updateUsernameResponseSchema, type UpdateUsernameRequest } from '@lockit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileQueryKey, type Profile } from '@/api/get-profile';
import { apiRequest } from '@/lib/api-client';
import { moveRememberedKdfParams } from '@/lib/kdf-memory';
import { moveRememberedKeyGeneration } from '@/lib/key-generation-memory';
import { moveRememberedVaultCounter } from '@/lib/vault-counter-memory';
import { useKeyring } from '@/lib/keyring-context';

/** PUT /api/users/update-username. Resolves with the name the server stored. */
export async function updateUsername(body: UpdateUsernameRequest): Promise<string> {
  const answer = await apiRequest(apiPaths.updateUsername, {
    method: 'PUT',
    body,
    schema: updateUsernameResponseSchema,
    protectedCall: true,
  });
  return answer.data.username;
}

/**
 * On success the shown profile, the unlocked vault's owner name and this browser's memory of
 * the account's KDF params follow the new name.
 */
export function useUpdateUsername() {
  const queryClient = useQueryClient();
  const keyring = useKeyring();
  return useMutation({
    mutationFn: updateUsername,
    onSuccess: (username) => {
      const previous = queryClient.getQueryData<Profile>(profileQueryKey)?.username ?? keyring.vault?.username;
      queryClient.setQueryData<Profile>(profileQueryKey, (profile) => (profile ? { ...profile, username } : profile));
      keyring.rename(username);
      return previous
        ? Promise.all([
            moveRememberedKdfParams(previous, username),
            moveRememberedKeyGeneration(previous, username),
            moveRememberedVaultCounter(previous, username),
          ])
        : undefined;
    },
  });
}
