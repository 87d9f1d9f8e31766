import { apiPaths, preloginResponseSchema, type PreloginRequest, type PreloginResponse } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/users/prelogin: the salt and KDF params for a username. Untrusted: the caller
 * must pass `kdf` through checkKdfParams before deriving anything.
 */
export async function prelogin(body: PreloginRequest): Promise<PreloginResponse['data']> {
  const answer = await apiRequest(apiPaths.prelogin, { method: 'POST', body, schema: preloginResponseSchema });
  return answer.data;
}
