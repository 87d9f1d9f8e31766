import { apiPaths, recoveryCodesResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/user/two-factor/recovery-codes {password: authKey}: 10 new codes; the old ones stop working. */
export async function makeRecoveryCodes(authKey: string): Promise<string[]> {
  const answer = await apiRequest(apiPaths.recoveryCodes, {
    method: 'POST',
    body: { password: authKey },
    schema: recoveryCodesResponseSchema,
    protectedCall: true,
  });
  return answer.data.recoveryCodes;
}
