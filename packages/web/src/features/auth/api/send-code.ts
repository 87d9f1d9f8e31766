import { apiPaths, type SendCodeRequest } from '@lockit/contract';
import { useMutation } from '@tanstack/react-query';
import { anyResponse } from '@/lib/any-response';
import { apiRequest } from '@/lib/api-client';

/** POST /api/email/send-code: mails a 6-character code. Any 2xx is success; resolves with the server's message. */
export async function sendCode(body: SendCodeRequest): Promise<string> {
  const answer = await apiRequest(apiPaths.sendCode, { method: 'POST', body, schema: anyResponse });
  return answer.message ?? 'Verification code sent.';
}

export function useSendCode() {
  return useMutation({ mutationFn: sendCode });
}
