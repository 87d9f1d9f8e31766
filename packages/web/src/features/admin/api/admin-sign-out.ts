import { adminPaths } from '@lockit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';
import { adminSessionKey, type AdminState } from './get-admin-session';

/** POST /api/admin/sign-out: ends the admin session on the server and clears its cookie. */
export async function adminSignOut(): Promise<void> {
  await apiRequest(adminPaths.signOut, { method: 'POST', schema: anyResponse });
}

/** Whatever the server says, the page forgets what it showed (users, e-mails) at once. */
export function useAdminSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminSignOut,
    onSettled: () => {
      queryClient.removeQueries({ queryKey: ['admin'] });
      const state: AdminState = { kind: 'signed-out' };
      queryClient.setQueryData(adminSessionKey, state);
    },
  });
}
