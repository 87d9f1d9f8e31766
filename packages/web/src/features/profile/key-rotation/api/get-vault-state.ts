import { apiPaths, vaultStateResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** GET /api/vault/state: the stored integrity state (null: none yet) and the vault revision it belongs to. */
export async function getVaultState(): Promise<{ state: string | null; vaultRevision: number }> {
  const answer = await apiRequest(apiPaths.vaultState, { method: 'GET', schema: vaultStateResponseSchema, protectedCall: true });
  return answer.data;
}
