import { apiPaths, keyMaterialResponseSchema, type KeyMaterialResponse } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/**
 * GET /api/user/key-material: salt, KDF params and wrapped vault key of the session's
 * account, for an Unlock without a new sign-in. Untrusted: the caller checks the params
 * against the policy and the unwrap verifies all three.
 */
export async function getKeyMaterial(): Promise<KeyMaterialResponse['data']> {
  const answer = await apiRequest(apiPaths.keyMaterial, {
    method: 'GET',
    schema: keyMaterialResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
