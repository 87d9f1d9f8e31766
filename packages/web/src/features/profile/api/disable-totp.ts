import { apiPaths, messageResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/user/two-factor/totp/disable {password: authKey}: turns the authenticator app off. */
export async function disableTotp(authKey: string): Promise<string> {
  const answer = await apiRequest(apiPaths.totpDisable, {
    method: 'POST',
    body: { password: authKey },
    schema: messageResponseSchema,
    protectedCall: true,
  });
  return answer.message;
}
