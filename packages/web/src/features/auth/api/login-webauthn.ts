import { apiPaths, secondFactorResponseSchema, type SecondFactorResponse } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/users/login/webauthn: completes a pending sign-in with a security key's assertion. */
export async function loginWebauthn(body: {
  token: string;
  response: Record<string, unknown>;
  remember: boolean;
}): Promise<SecondFactorResponse> {
  return apiRequest(apiPaths.loginWebauthn, { method: 'POST', body, schema: secondFactorResponseSchema });
}
