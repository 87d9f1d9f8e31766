import { adminPaths, adminSessionResponseSchema } from '@lockit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { adminSessionKey, type AdminState } from './get-admin-session';

/** POST /api/admin/sign-in with the admin token; the server sets the admin cookie. */
export async function adminSignIn(token: string) {
  const answer = await apiRequest(adminPaths.signIn, { method: 'POST', body: { token }, schema: adminSessionResponseSchema });
  return answer.data;
}

export function useAdminSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminSignIn,
    onSuccess: (session) => {
      const state: AdminState = { kind: 'signed-in', session };
      queryClient.setQueryData(adminSessionKey, state);
    },
  });
}
