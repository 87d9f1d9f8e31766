import { apiPaths, keyRotationPartResponseSchema, type KeyRotationPart } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** PUT /api/user/key-rotation/{id}/parts: stages re-encrypted items beside the live vault. */
export async function putKeyRotationPart(rotationId: string, part: KeyRotationPart): Promise<void> {
  await apiRequest(apiPaths.keyRotationParts(rotationId), {
    method: 'PUT',
    body: part,
    schema: keyRotationPartResponseSchema,
    protectedCall: true,
  });
}
