import { unwrapVaultKey, VaultKeyRejectedError, type AccountKeys } from '@lockit/crypto';
import { checkServerKeySettings } from '@/lib/account-key-policy';
import { deriveKeys } from '@/lib/derive-keys';
import { deviceMemory } from '@/lib/device-memory';
import { rewrapVaultKey } from '@/lib/rewrap-vault-key';
import type { UnlockedVault } from '@/lib/keyring';
import { getKeyMaterial } from '@/api/get-key-material';
import { unlockedVaultFromKeyBytes } from '@/lib/unlocked-vault-from-key-bytes';

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
 * - Params outside the policy or beyond this device, params weaker or a key generation lower
 *   than this browser already saw for the account, stop everything before any key is derived
 *   (checkServerKeySettings: KdfParamsRejectedError, readable message).
 * - Params below today's floor (allowed only for an account this browser knew with them) are
 *   re-wrapped under the defaults with the same password once the vault opened.
 * - Nothing derived from the password is sent anywhere: the unwrap proves the password
 *   locally, and the wrap's associated data binds params and salt, so altered material fails.
 * - The raw vault key bytes are wiped once imported (unlockedVaultFromKeyBytes).
 * - The account whose memory is checked is the one this browser's sign-in bound
 *   (UnknownSessionAccountError when there is none), never the name the server shows: a server
 *   that answers a look-alike or no name cannot point the checks at an empty memory.
 * - `whileDeriving` runs only after the params passed the policy, and receives nothing.
 *
 * Errors: UnknownSessionAccountError, KdfParamsRejectedError, WrongMasterPasswordError, KeyDerivationError, and the API
 * client's errors for the key-material call.
 */
export async function unlockVault(
  password: string,
  username: string,
  { whileDeriving }: { whileDeriving?: () => void } = {},
): Promise<UnlockedVault> {
  const account = await deviceMemory.requireSessionAccount();
  const material = await getKeyMaterial();
  const { kdf, keyGeneration, belowFloor } = await checkServerKeySettings(account, material);
  // Argon2id takes a second or more: work that needs no key (e.g. fetching the ciphertexts)
  // can run meanwhile. Only once the params passed the policy.
  whileDeriving?.();
  const keys = await deriveKeys(password, material.salt, kdf, { legacyFloor: belowFloor });
  let bytes: Uint8Array;
  try {
    bytes = await unwrapVaultKey(material.protectedKey, keys.wrapKey, kdf, material.salt, keyGeneration);
  } catch (error) {
    if (error instanceof VaultKeyRejectedError) throw new WrongMasterPasswordError();
    throw error;
  }
  const vault = await unlockedVaultFromKeyBytes(bytes, {
    username,
    account,
    kdf,
    salt: material.salt,
    protectedKey: material.protectedKey,
    keyGeneration,
  });
  await deviceMemory.rememberKdfParams(account, kdf);
  await deviceMemory.rememberKeyGeneration(account, keyGeneration);
  return belowFloor ? upgradeKdf(vault, keys, password) : vault;
}

/** As at sign-in: best effort, the vault stays open if the re-wrap fails. */
async function upgradeKdf(vault: UnlockedVault, keys: AccountKeys, password: string): Promise<UnlockedVault> {
  try {
    const { material } = await rewrapVaultKey(vault.account, vault, keys, password);
    return { ...vault, ...material };
  } catch {
    return vault;
  }
}
