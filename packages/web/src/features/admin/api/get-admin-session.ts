import { adminPaths, adminSessionResponseSchema, type AdminSessionInfo } from '@lockit/contract';
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-errors';
import { apiRequest } from '@/lib/api-client';

/**
 * What the admin page is: `off` (the server has no ADMIN_TOKEN: its admin API answers 404, so
 * the page does not exist), `signed-out`, or signed in with the session's limits.
 */
export type AdminState = { kind: 'off' } | { kind: 'signed-out' } | { kind: 'signed-in'; session: AdminSessionInfo };

export const adminSessionKey = ['admin-session'] as const;

/** GET /api/admin/session: 200 signed in, 401 signed out, 404 no admin on this server. */
export async function getAdminState(): Promise<AdminState> {
  try {
    const answer = await apiRequest(adminPaths.session, { method: 'GET', schema: adminSessionResponseSchema });
    return { kind: 'signed-in', session: answer.data };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { kind: 'off' };
    if (error instanceof ApiError && error.status === 401) return { kind: 'signed-out' };
    throw error;
  }
}

export function useAdminState() {
  return useQuery({ queryKey: adminSessionKey, queryFn: getAdminState, retry: false, refetchOnWindowFocus: true });
}

/**
 * An admin call answered 401: the session ended (15 idle minutes, one hour, or a sign-out in
 * another tab). The page goes back to the sign-in form and forgets what it showed.
 */
export function useSignInAgainOn401(error: unknown) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!(error instanceof ApiError) || error.status !== 401) return;
    queryClient.removeQueries({ queryKey: ['admin'] });
    const state: AdminState = { kind: 'signed-out' };
    queryClient.setQueryData(adminSessionKey, state);
  }, [error, queryClient]);
}
