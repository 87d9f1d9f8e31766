import { unlockWithPasskey as unlockWithCore } from '@lockit/client-core';
import { keyPlatform } from '@/lib/key-platform';
import type { UnlockedVault } from '@/lib/keyring';
import { getAssertion } from './prf-ceremonies';

export { PasskeyNoPrfError } from '@lockit/client-core';

/**
 * Unlock with a passkey, for a live session whose vault this tab does not hold: the client
 * core's (see its invariants), with the browser's WebAuthn ceremony asking for PRF.
 *
 * Errors: PasskeyCeremonyError (cancelled, timed out, no WebAuthn), PasskeyNoPrfError,
 * PasskeyUnlockError, KdfParamsRejectedError, and the API client's errors.
 */
export function unlockWithPasskey(username: string): Promise<UnlockedVault> {
  return unlockWithCore(keyPlatform, username, getAssertion);
}
