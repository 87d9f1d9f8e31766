import { apiPaths, secondFactorResponseSchema, type SecondFactorRequest, type SecondFactorResponse } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/users/login/second-factor: completes a pending sign-in with a TOTP or recovery code. */
export async function loginSecondFactor(body: SecondFactorRequest): Promise<SecondFactorResponse> {
  return apiRequest(apiPaths.loginSecondFactor, { method: 'POST', body, schema: secondFactorResponseSchema });
}
