import { unwrapVaultKey, VaultKeyRejectedError, type AccountKeys } from '@lockit/crypto';
import type { AccountRef } from '../device-memory/account-ref';
import type { KeyPlatform, UncheckedKeyMaterial, VaultAccount } from './client-keys';
import { checkServerKeyEpoch, checkServerKeySettings } from './key-settings-policy';
import { upgradeBelowFloor } from './rewrap-vault-key';

export const WRONG_MASTER_PASSWORD = 'That master password did not unlock your vault.';

/** The wrapped vault key did not open with the keys of this password. Nothing was unlocked. */
export class WrongMasterPasswordError extends Error {
  override readonly name = 'WrongMasterPasswordError';
  constructor() {
    super(WRONG_MASTER_PASSWORD);
  }
}

/**
 * Unlock for a live session whose vault key this client no longer holds (reload, idle lock):
 * key material -> every check of its key settings -> derive keys -> unwrap the vault key with
 * the CHECKED params and the salt it came with -> the platform's vault.
 *
 * Security invariants:
 * - Params outside the policy or beyond this device, params weaker or a key generation or key
 *   epoch lower than this device already saw for the account, stop everything before any key is
 *   derived (KdfParamsRejectedError, readable message). The unwrap binds the epoch, so a wrap of a
 *   key a rotation replaced cannot pass as the current one.
 * - Params below today's floor (allowed only for an account this device knew with them) are
 *   re-wrapped under the defaults with the same password once the vault opened.
 * - Nothing derived from the password is sent anywhere: the unwrap proves the password locally,
 *   and the wrap's associated data binds params, salt and generation, so altered material fails.
 * - The account whose memory is checked is the one this device's sign-in bound
 *   (UnknownSessionAccountError when there is none), never the name the server shows: a server
 *   that answers a look-alike or no name cannot point the checks at an empty memory.
 * - `whileDeriving` runs only after the params passed the policy, and receives nothing.
 *
 * Errors: UnknownSessionAccountError, KdfParamsRejectedError, WrongMasterPasswordError, the
 * platform's derivation errors, and the API client's errors for the key-material call.
 */
export async function unlockWithPassword<V extends VaultAccount>(
  platform: KeyPlatform<V>,
  password: string,
  username: string,
  { whileDeriving }: { whileDeriving?: () => void } = {},
): Promise<V> {
  const account = await platform.memory.requireSessionAccount();
  const { data: material } = await platform.api.call('key-material', {});
  const { vault, keys, belowFloor } = await unlockWithKeyMaterial(platform, account, material, password, username, {
    whileDeriving,
  });
  return belowFloor ? upgradeBelowFloor(platform, vault, keys, password) : vault;
}

/**
 * The checks and the unwrap of unlockWithPassword, on key material from wherever it came (the
 * server now, or the offline copy a server once sent): its invariants hold for both. Nothing is
 * re-wrapped here; `belowFloor` says the caller should, once it can reach the server.
 */
export async function unlockWithKeyMaterial<V extends VaultAccount>(
  platform: Omit<KeyPlatform<V>, 'api'>,
  account: AccountRef,
  material: UncheckedKeyMaterial,
  password: string,
  username: string,
  { whileDeriving }: { whileDeriving?: () => void } = {},
): Promise<{ vault: V; keys: AccountKeys; belowFloor: boolean }> {
  const { kdf, keyGeneration, belowFloor } = await checkServerKeySettings(platform.memory, account, material, platform.device());
  const keyEpoch = await checkServerKeyEpoch(platform.memory, account, material);
  // Argon2id takes a second or more: work that needs no key (fetching the ciphertexts) can run
  // meanwhile. Only once the params passed the policy.
  whileDeriving?.();
  const keys = await platform.derive(password, material.salt, kdf, { legacyFloor: belowFloor });
  let bytes: Uint8Array;
  try {
    bytes = await unwrapVaultKey(material.protectedKey, keys.wrapKey, kdf, material.salt, keyGeneration, keyEpoch);
  } catch (error) {
    if (error instanceof VaultKeyRejectedError) throw new WrongMasterPasswordError();
    throw error;
  }
  const vault = await platform.open(bytes, {
    username,
    account,
    kdf,
    salt: material.salt,
    protectedKey: material.protectedKey,
    keyGeneration,
    keyEpoch,
  });
  await platform.memory.rememberKdfParams(account, kdf);
  await platform.memory.rememberKeyGeneration(account, keyGeneration);
  await platform.memory.rememberKeyEpoch(account, keyEpoch);
  return { vault, keys, belowFloor };
}
