import { unlockWithPasskey as unlockWithCore } from '@lockit/client-core';
import { keyPlatform } from '@/lib/key-platform';
import { readKeepOfflineCopy } from '@/lib/offline/keep-offline-copy';
import { offlineCopies } from '@/lib/offline/offline-copies';
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
  // The unlock key that opens is kept beside the offline copy, so this passkey opens the copy
  // with the server down; not when the person turned the copy off.
  const copies = readKeepOfflineCopy() && typeof indexedDB !== 'undefined' ? offlineCopies : undefined;
  return unlockWithCore(keyPlatform, username, getAssertion, { copies });
}
