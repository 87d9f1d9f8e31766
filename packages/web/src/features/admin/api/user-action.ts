import { adminPaths } from '@lockit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '@/components/ui/toast';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';
import { failureText } from '../lib/format';

/** The per-account operations of the admin API (each one call, named by its path). */
export type UserAction = 'disable' | 'enable' | 'end-sessions' | 'delete';

/**
 * POST /api/admin/users/{id}/disable, /enable, /end-sessions, or DELETE /api/admin/users/{id}.
 * Answers the server's message (e.g. "Account disabled; its sessions have ended").
 */
export async function runUserAction(action: UserAction, userId: string): Promise<string> {
  const [method, path] =
    action === 'delete'
      ? (['DELETE', adminPaths.user(userId)] as const)
      : action === 'disable'
        ? (['POST', adminPaths.disableUser(userId)] as const)
        : action === 'enable'
          ? (['POST', adminPaths.enableUser(userId)] as const)
          : (['POST', adminPaths.endUserSessions(userId)] as const);
  const answer = await apiRequest(path, { method, schema: anyResponse });
  return answer.message ?? 'Done';
}

/**
 * Says how it went in a toast, then refreshes what the page shows (the users list, the
 * diagnostics' counts). The toast is the mutation's own, not the caller's: a deleted
 * account's row, which started the call, is gone by the time the list is fresh.
 */
export function useUserAction() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ action, userId }: { action: UserAction; userId: string }) => runUserAction(action, userId),
    onSuccess: (message) => toast({ kind: 'success', message, durationMs: 3000 }),
    onError: (error) => toast({ kind: 'error', message: failureText(error), durationMs: 3000 }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
