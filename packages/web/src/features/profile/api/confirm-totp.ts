import { apiPaths, factorAddedResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/user/two-factor/totp/confirm {code}: turns the authenticator app on. Answers the
 * recovery codes when this is the account's first factor (shown once), else undefined.
 */
export async function confirmTotp(code: string): Promise<string[] | undefined> {
  const answer = await apiRequest(apiPaths.totpConfirm, {
    method: 'POST',
    body: { code },
    schema: factorAddedResponseSchema,
    protectedCall: true,
  });
  return answer.data.recoveryCodes;
}
