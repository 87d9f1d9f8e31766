import { apiPaths, type VerifyCodeRequest } from '@lockit/contract';
import { useMutation } from '@tanstack/react-query';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';

/** POST /api/email/verify-code: success is a 200; any other status is an ApiError. */
export async function verifyCode(body: VerifyCodeRequest): Promise<string> {
  const answer = await apiRequest(apiPaths.verifyCode, { method: 'POST', body, schema: anyResponse, successStatus: 200 });
  return answer.message ?? 'Email verified';
}

export function useVerifyCode() {
  return useMutation({ mutationFn: verifyCode });
}
