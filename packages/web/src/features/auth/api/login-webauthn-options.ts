import { apiPaths, webauthnOptionsResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/users/login/webauthn-options: a security-key challenge for a pending sign-in. Untrusted JSON. */
export async function loginWebauthnOptions(token: string): Promise<Record<string, unknown>> {
  const answer = await apiRequest(apiPaths.loginWebauthnOptions, {
    method: 'POST',
    body: { token },
    schema: webauthnOptionsResponseSchema,
  });
  return answer.data.options;
}
