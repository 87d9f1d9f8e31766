import { apiPaths, publicConfigResponseSchema, type PublicConfig } from '@lockit/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET /api/config (public): the server's settings for browsers, e.g. the breach check's range API. */
export async function getPublicConfig(): Promise<PublicConfig> {
  const answer = await apiRequest(apiPaths.publicConfig, { method: 'GET', schema: publicConfigResponseSchema });
  return answer.data;
}

/**
 * Fetched once per tab (an operator's setting does not change under a running page), and only
 * once `enabled`: a page asks only when it is about to need it.
 */
export function usePublicConfig(enabled = true) {
  return useQuery({ queryKey: ['public-config'], queryFn: getPublicConfig, staleTime: Infinity, retry: false, enabled });
}
