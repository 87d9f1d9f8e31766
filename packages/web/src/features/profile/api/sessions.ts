import {
  endOtherSessions as endOthersInCore,
  endSession as endSessionInCore,
  listSessions as listSessionsInCore,
} from '@lockit/client-core';
import type { DeviceSession } from '@lockit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/http';

const sessionsQueryKey = ['sessions'] as const;

/** The signed-in user's sessions, this browser's marked `current` (the client core's call). */
export const listSessions = (): Promise<DeviceSession[]> => listSessionsInCore(api);

/** That device is signed out at its next request. */
export const endSession = (id: string): Promise<string> => endSessionInCore(api, id);

/** Every session but this browser's; answers how many ended. */
export const endOtherSessions = (): Promise<number> => endOthersInCore(api);

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
