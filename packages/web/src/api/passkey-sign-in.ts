import {
  apiPaths,
  passkeyOptionsResponseSchema,
  passkeySignInResponseSchema,
  type PasskeySignInResponse,
} from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

export interface PasskeyChallenge {
  challengeId: string;
  options: Record<string, unknown>;
}

/** POST /api/users/passkey/options (public): a discoverable-credential challenge. */
export async function getPasskeyOptions(): Promise<PasskeyChallenge> {
  return (await apiRequest(apiPaths.passkeyOptions, { method: 'POST', body: {}, schema: passkeyOptionsResponseSchema })).data;
}

/**
 * POST /api/users/passkey/sign-in: the assertion (without its PRF output) opens a session.
 * The answer's unlock key and ids are untrusted: the unwrap's associated data checks them.
 */
export async function signInWithAssertion(body: {
  challengeId: string;
  response: Record<string, unknown>;
}): Promise<{ message: string; data: PasskeySignInResponse }> {
  return apiRequest(apiPaths.passkeySignIn, { method: 'POST', body, schema: passkeySignInResponseSchema });
}
