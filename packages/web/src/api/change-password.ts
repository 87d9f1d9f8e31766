import { apiPaths, type ChangePasswordRequest } from '@lockit/contract';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';

/**
 * PUT /api/users/change-password: old and new authKey plus the re-wrapped vault key, in one
 * call, so the server swaps them in one transaction. Resolves with the server's message.
 */
export async function changePassword(body: ChangePasswordRequest): Promise<string> {
  const answer = await apiRequest(apiPaths.changePassword, {
    method: 'PUT',
    body,
    schema: anyResponse,
    protectedCall: true,
  });
  return answer.message ?? 'Password updated';
}
