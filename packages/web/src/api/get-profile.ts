import { apiPaths, profileResponseSchema, type ProfileResponse } from '@lockit/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export type Profile = ProfileResponse['data'];

export const profileQueryKey = ['profile'] as const;

/** GET /api/user/profile: the signed-in user's username, email and full name. */
export async function getProfile(): Promise<Profile> {
  const answer = await apiRequest(apiPaths.profile, {
    method: 'GET',
    schema: profileResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}

/** Always asks the server on mount: a cached profile must not stand in for a live session. */
export function useProfileQuery() {
  return useQuery({ queryKey: profileQueryKey, queryFn: getProfile, refetchOnMount: 'always' });
}
