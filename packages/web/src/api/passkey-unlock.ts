import {
  apiPaths,
  passkeyUnlockOptionsResponseSchema,
  passkeyUnlockResponseSchema,
  type PasskeyUnlockResponse,
} from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import type { PasskeyChallenge } from './passkey-sign-in';

/** POST /api/user/passkey/unlock-options: a challenge for this session's passkeys that can unlock. */
export async function getPasskeyUnlockOptions(): Promise<PasskeyChallenge> {
  const answer = await apiRequest(apiPaths.passkeyUnlockOptions, {
    method: 'POST',
    body: {},
    schema: passkeyUnlockOptionsResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}

/**
 * POST /api/user/passkey/unlock: the assertion (without its PRF output) for the passkey's unlock
 * key. The answer is untrusted: the unwrap's associated data checks the key against the ids.
 */
export async function unlockWithAssertion(body: {
  challengeId: string;
  response: Record<string, unknown>;
}): Promise<PasskeyUnlockResponse> {
  const answer = await apiRequest(apiPaths.passkeyUnlock, {
    method: 'POST',
    body,
    schema: passkeyUnlockResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}
