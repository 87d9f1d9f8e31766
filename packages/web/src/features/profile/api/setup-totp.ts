import { apiPaths, totpSetupResponseSchema } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

export interface TotpSetup {
  /** Base32, as authenticator apps take it typed. */
  secret: string;
  /** otpauth://totp/... for the QR code. */
  uri: string;
}

/** POST /api/user/two-factor/totp/setup {password: authKey}: a new seed, not on until confirmed. */
export async function setupTotp(authKey: string): Promise<TotpSetup> {
  const answer = await apiRequest(apiPaths.totpSetup, {
    method: 'POST',
    body: { password: authKey },
    schema: totpSetupResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
