import { apiPaths, startKeyRotationResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

export interface StartedRotation {
  id: string;
  /** The account's key generation now: the commit sends this + 1. */
  keyGeneration: number;
}

/**
 * POST /api/user/key-rotation: the current password's auth key, and the vault revision every
 * ciphertext about to be re-encrypted was read at (the server answers 409 if it moved on).
 */
export async function startKeyRotation(authKey: string, vaultRevision: number): Promise<StartedRotation> {
  const answer = await apiRequest(apiPaths.keyRotation, {
    method: 'POST',
    body: { authKey, vaultRevision },
    schema: startKeyRotationResponseSchema,
    protectedCall: true,
  });
  return { id: answer.data.id, keyGeneration: answer.data.keyGeneration };
}
