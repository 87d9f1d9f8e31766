import { apiPaths, commitKeyRotationResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

export interface RotationCommitted {
  keyGeneration: number;
  vaultRevision: number;
  passkeyUnlocksRemoved: number;
  sessionsEnded: number;
}

/**
 * POST /api/user/key-rotation/{id}/commit: the new vault key wrapped for the next generation
 * and key epoch, and the re-encrypted vault's integrity state. The server swaps everything in one transaction.
 */
export async function commitKeyRotation(
  rotationId: string,
  body: { protectedKey: string; keyGeneration: number; keyEpoch: number; vaultState: string },
): Promise<RotationCommitted> {
  const answer = await apiRequest(apiPaths.keyRotationCommit(rotationId), {
    method: 'POST',
    body,
    schema: commitKeyRotationResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
