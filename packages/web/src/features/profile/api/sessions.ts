import {
  apiPaths,
  endOtherSessionsResponseSchema,
  listSessionsResponseSchema,
  messageResponseSchema,
  type DeviceSession,
} from '@lockit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const sessionsQueryKey = ['sessions'] as const;

/** GET /api/user/sessions: the signed-in user's sessions, this browser's marked `current`. */
export async function listSessions(): Promise<DeviceSession[]> {
  return (await apiRequest(apiPaths.sessions, { method: 'GET', schema: listSessionsResponseSchema, protectedCall: true })).data;
}

/** DELETE /api/user/sessions/{id}: that device is signed out at its next request. */
export async function endSession(id: string): Promise<string> {
  return (await apiRequest(apiPaths.session(id), { method: 'DELETE', schema: messageResponseSchema, protectedCall: true }))
    .message;
}

/** POST /api/user/sessions/end-others: every session but this browser's; answers how many ended. */
export async function endOtherSessions(): Promise<number> {
  const answer = await apiRequest(apiPaths.endOtherSessions, {
    method: 'POST',
    schema: endOtherSessionsResponseSchema,
    protectedCall: true,
  });
  return answer.data.ended;
}

export function useSessions() {
  return useQuery({ queryKey: sessionsQueryKey, queryFn: listSessions });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
