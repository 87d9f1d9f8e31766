import {
  checkKdfParams,
  DEFAULT_KDF_PARAMS,
  randomSalt,
  unwrapVaultKey,
  VaultKeyRejectedError,
  wrapVaultKey,
} from '@lockit/crypto';
import { getKeyMaterial } from '@/api/get-key-material';
import { deriveKeys } from '@/lib/derive-keys';
import { rememberKdfParams } from '@/lib/kdf-memory';
import type { KeyMaterial } from '@/lib/keyring';
import { changePassword } from '../api/change-password';

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
 * reload). Untrusted: the params pass the policy here, and the unwrap in
 * changeMasterPassword verifies params, salt and wrapped key together.
 */
export async function fetchKeyMaterial(username: string): Promise<AccountKeyMaterial> {
  const material = await getKeyMaterial();
  return { username, kdf: checkKdfParams(material.kdf), salt: material.salt, protectedKey: material.protectedKey };
}

/** What a password change needs: whose account, and its current (checked) key material. */
export type AccountKeyMaterial = KeyMaterial & { username: string };

/**
 * Change the master password without touching any entry:
 * old keys from the current password and the account's salt/params -> unwrap the vault key
 * (proves the current password locally) -> new keys from a fresh salt and the default
 * params -> re-wrap the SAME vault key bytes -> one PUT with old and new authKey.
 *
 * Security invariants: neither password leaves this function (only authKeys are sent); the
 * raw vault key bytes exist only between unwrap and re-wrap and are wiped afterwards; the
 * new salt is never the old one. Once the server said yes, this browser remembers the new
 * params: a server that kept the old, weaker ones is caught at the next sign-in.
 */
export async function changeMasterPassword(
  vault: AccountKeyMaterial,
  currentPassword: string,
  newPassword: string,
): Promise<PasswordChanged> {
  const oldKeys = await deriveKeys(currentPassword, vault.salt, vault.kdf);
  let vaultKeyBytes: Uint8Array;
  try {
    vaultKeyBytes = await unwrapVaultKey(vault.protectedKey, oldKeys.wrapKey, vault.kdf, vault.salt);
  } catch (error) {
    if (error instanceof VaultKeyRejectedError) throw new CurrentPasswordIncorrectError();
    throw error;
  }
  try {
    const salt = randomSalt();
    const kdf = { ...DEFAULT_KDF_PARAMS };
    const newKeys = await deriveKeys(newPassword, salt, kdf);
    const protectedKey = await wrapVaultKey(vaultKeyBytes, newKeys.wrapKey, kdf, salt);
    const message = await changePassword({
      oldPassword: oldKeys.authKey,
      newPassword: newKeys.authKey,
      kdf,
      salt,
      protectedKey,
    });
    await rememberKdfParams(vault.username, kdf);
    return { message, material: { kdf, salt, protectedKey } };
  } finally {
    vaultKeyBytes.fill(0);
  }
}
