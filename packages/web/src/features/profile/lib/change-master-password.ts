import type { AccountRef } from '@lockit/client-core';
import { VaultKeyRejectedError } from '@lockit/crypto';
import { getKeyMaterial } from '@/api/get-key-material';
import { checkServerKeyEpoch, checkServerKeySettings } from '@/lib/account-key-policy';
import { deriveKeys } from '@/lib/derive-keys';
import { deviceMemory } from '@/lib/device-memory';
import type { KeyMaterial } from '@/lib/keyring';
import { rewrapVaultKey } from '@/lib/rewrap-vault-key';

/** The current password did not unwrap this tab's vault key: nothing was sent. */
export class CurrentPasswordIncorrectError extends Error {
  override readonly name = 'CurrentPasswordIncorrectError';
  constructor() {
    super('Current password is incorrect.');
  }
}

export interface PasswordChanged {
  message: string;
  material: KeyMaterial;
}

/**
 * The key material of the session's account when this tab's vault is locked (e.g. after a
 * reload). Untrusted: the params, key generation and key epoch pass this browser's checks here
 * (checkServerKeySettings, checkServerKeyEpoch), and the unwrap in changeMasterPassword verifies
 * params, salt, generation, epoch and wrapped key together. The account is the one this browser signed in as
 * (UnknownSessionAccountError when it does not know), never the name the server shows.
 */
export async function fetchKeyMaterial(username: string): Promise<AccountKeyMaterial> {
  const account = await deviceMemory.requireSessionAccount();
  const material = await getKeyMaterial();
  const { kdf, keyGeneration } = await checkServerKeySettings(account, material);
  const keyEpoch = await checkServerKeyEpoch(account, material);
  return { username, account, kdf, salt: material.salt, protectedKey: material.protectedKey, keyGeneration, keyEpoch };
}

/** What a password change needs: whose account, and its current (checked) key material. */
export type AccountKeyMaterial = KeyMaterial & { username: string; account: AccountRef };

/**
 * Change the master password without touching any entry:
 * old keys from the current password and the account's salt/params -> unwrap the vault key
 * (proves the current password locally) -> new keys from a fresh salt and the default
 * params -> re-wrap the SAME vault key bytes for the next key generation -> one PUT with old
 * and new authKey (rewrapVaultKey).
 *
 * Security invariants: neither password leaves this function (only authKeys are sent); see
 * rewrapVaultKey for the vault key bytes, the salt, the generation and what this browser
 * remembers once the server said yes.
 */
export async function changeMasterPassword(
  vault: AccountKeyMaterial,
  currentPassword: string,
  newPassword: string,
): Promise<PasswordChanged> {
  const oldKeys = await deriveKeys(currentPassword, vault.salt, vault.kdf, { legacyFloor: true });
  try {
    return await rewrapVaultKey(vault.account, vault, oldKeys, newPassword);
  } catch (error) {
    if (error instanceof VaultKeyRejectedError) throw new CurrentPasswordIncorrectError();
    throw error;
  }
}
