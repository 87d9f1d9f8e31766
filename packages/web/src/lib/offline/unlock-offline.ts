import { unlockOfflineCopy, unlockOfflineCopyWithPasskey, type OfflineCopy } from '@lockit/client-core';
import { getAssertion } from '../passkey/prf-ceremonies';
import { keyPlatform } from '../key-platform';
import type { UnlockedVault } from '../keyring';
import { offlineCopies } from './offline-copies';
import { offlineList } from './opened-offline';
import { rememberOpenedOffline } from './opened-offline-registry';

/**
 * Unlock with the server unreachable: the client core's unlockOfflineCopy (see its invariants:
 * the copy's key material passes every check a served one does) with this browser's platform,
 * without its API client. The copy's list is then opened and checked by the vault's screen as a
 * served list is, against the vault state the copy carries.
 *
 * Errors: UnknownSessionAccountError, NoOfflineCopyError, OfflineCopyDamagedError,
 * KdfParamsRejectedError, WrongMasterPasswordError, KeyDerivationError.
 */
export async function unlockOffline(
  password: string,
  options: { whileDeriving?: () => void } = {},
): Promise<{ vault: UnlockedVault; copy: OfflineCopy; entries: unknown[] }> {
  const { api: _api, ...platform } = keyPlatform;
  const { vault, copy } = await unlockOfflineCopy({ ...platform, copies: offlineCopies }, password, options);
  rememberOpenedOffline(vault.vaultKey, copy);
  return { vault, copy, entries: offlineList(copy) };
}

/**
 * Unlock with the server unreachable, with a passkey that unlocked this vault online on this
 * device: the client core's unlockOfflineCopyWithPasskey (see its invariants), with the
 * browser's WebAuthn ceremony. The list is opened and checked as unlockOffline's is.
 *
 * Errors: those of unlockOffline but the password's, NoOfflinePasskeyError, PasskeyCeremonyError,
 * PasskeyNoPrfError, PasskeyUnlockError.
 */
export async function unlockOfflineWithPasskey(): Promise<{ vault: UnlockedVault; copy: OfflineCopy; entries: unknown[] }> {
  const { api: _api, ...platform } = keyPlatform;
  const { vault, copy } = await unlockOfflineCopyWithPasskey({ ...platform, copies: offlineCopies }, getAssertion);
  rememberOpenedOffline(vault.vaultKey, copy);
  return { vault, copy, entries: offlineList(copy) };
}
