import { checkKdfParams, importVaultKey, unwrapVaultKey, VaultKeyRejectedError } from '@lockit/crypto';
import { deriveKeys } from '@/lib/derive-keys';
import { checkRememberedKdfParams, rememberKdfParams } from '@/lib/kdf-memory';
import type { UnlockedVault } from '@/lib/keyring';
import { getKeyMaterial } from '@/api/get-key-material';
import { sealForReload } from '@/lib/reload-unlock/reload-vault';

export const WRONG_MASTER_PASSWORD = 'That master password did not unlock your vault.';

/** The wrapped vault key did not open with the keys of this password. Nothing was unlocked. */
export class WrongMasterPasswordError extends Error {
  override readonly name = 'WrongMasterPasswordError';
  constructor() {
    super(WRONG_MASTER_PASSWORD);
  }
}

/**
 * Unlock for a live session whose vault key this tab no longer holds (reload, idle lock):
 * key material -> checkKdfParams -> derive keys (Argon2id in a worker) -> unwrap the vault
 * key with the CHECKED params and the salt it came with -> import it non-extractable.
 *
 * Security invariants:
 * - Params outside the policy, or weaker than this browser already used for the account,
 *   stop everything before any key is derived (KdfParamsRejectedError, readable message).
 * - Nothing derived from the password is sent anywhere: the unwrap proves the password
 *   locally, and the wrap's associated data binds params and salt, so altered material fails.
 * - The raw vault key bytes are wiped once imported.
 * - `whileDeriving` runs only after the params passed the policy, and receives nothing.
 *
 * Errors: KdfParamsRejectedError, WrongMasterPasswordError, KeyDerivationError, and the API
 * client's errors for the key-material call.
 */
export async function unlockVault(
  password: string,
  username: string,
  { whileDeriving }: { whileDeriving?: () => void } = {},
): Promise<UnlockedVault> {
  const material = await getKeyMaterial();
  const kdf = checkKdfParams(material.kdf);
  if (username) await checkRememberedKdfParams(username, kdf);
  // Argon2id takes a second or more: work that needs no key (e.g. fetching the ciphertexts)
  // can run meanwhile. Only once the params passed the policy.
  whileDeriving?.();
  const keys = await deriveKeys(password, material.salt, kdf);
  let bytes: Uint8Array;
  try {
    bytes = await unwrapVaultKey(material.protectedKey, keys.wrapKey, kdf, material.salt);
  } catch (error) {
    if (error instanceof VaultKeyRejectedError) throw new WrongMasterPasswordError();
    throw error;
  }
  if (username) await rememberKdfParams(username, kdf);
  try {
    const vaultKey = await importVaultKey(bytes);
    const reloadSeal = await sealForReload(bytes);
    return { username, vaultKey, kdf, salt: material.salt, protectedKey: material.protectedKey, reloadSeal };
  } finally {
    bytes.fill(0);
  }
}
