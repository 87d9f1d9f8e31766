import { accountRefOf } from '@lockit/client-core';
import { apiPaths, updateUsernameResponseSchema, type UpdateUsernameRequest } from '@lockit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileQueryKey, type Profile } from '@/api/get-profile';
import { apiRequest } from '@/lib/api-client';
import { deviceMemory } from '@/lib/device-memory';
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
 * the account (DeviceMemory) follow the new name. The memory moves to the name the person typed,
 * never to the one the server answered: a server that answers a look-alike cannot lead it away.
 */
export function useUpdateUsername() {
  const queryClient = useQueryClient();
  const keyring = useKeyring();
  return useMutation({
    mutationFn: updateUsername,
    onSuccess: async (username, typed) => {
      queryClient.setQueryData<Profile>(profileQueryKey, (profile) => (profile ? { ...profile, username } : profile));
      const previous = keyring.vault?.account ?? (await deviceMemory.sessionAccount());
      const next = await accountRefOf(typed.username);
      keyring.rename(username, next);
      if (previous !== null) await deviceMemory.moveAccount(previous, next);
      else await deviceMemory.bindSession(next);
    },
  });
}
