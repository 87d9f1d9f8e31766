import { unlockWithPassword } from '@lockit/client-core';
import { keyPlatform } from '@/lib/key-platform';
import type { UnlockedVault } from '@/lib/keyring';

export { WRONG_MASTER_PASSWORD, WrongMasterPasswordError } from '@lockit/client-core';

/**
 * Unlock for a live session whose vault key this tab no longer holds: the client core's
 * unlockWithPassword (see its invariants) with this browser's platform, Argon2id in a worker.
 *
 * Errors: UnknownSessionAccountError, KdfParamsRejectedError, WrongMasterPasswordError,
 * KeyDerivationError, and the API client's errors for the key-material call.
 */
export function unlockVault(
  password: string,
  username: string,
  options: { whileDeriving?: () => void } = {},
): Promise<UnlockedVault> {
  return unlockWithPassword(keyPlatform, password, username, options);
}
