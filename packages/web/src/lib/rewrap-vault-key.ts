import type { AccountRef } from '@lockit/client-core';
import { DEFAULT_KDF_PARAMS, randomSalt, unwrapVaultKey, wrapVaultKey, type AccountKeys } from '@lockit/crypto';
import { changePassword } from '@/api/change-password';
import { deriveKeys } from './derive-keys';
import { deviceMemory } from './device-memory';
import type { KeyMaterial } from './keyring';

export interface Rewrapped {
  message: string;
  material: KeyMaterial & { keyGeneration: number };
}

/**
 * Re-wraps the SAME vault key under keys from `newPassword`, a fresh salt and the default
 * params, for the next key generation, and sends it in one change-password call. Used by a
 * password change, and after a sign-in or Unlock under params below today's floor (with the
 * same password: the account moves to the defaults with no action from the person).
 *
 * Security invariants: `oldKeys` must unwrap `material.protectedKey` first
 * (VaultKeyRejectedError otherwise, and nothing is sent); the raw vault key bytes exist only
 * between unwrap and re-wrap and are wiped afterwards; the new salt is never the old one; the
 * new wrap binds generation current + 1, which the server stores only if it is exactly that.
 * Once the server said yes, this browser remembers the new params and generation, so a server
 * that kept (or later serves again) the old ones is caught at the next sign-in.
 */
export async function rewrapVaultKey(
  account: AccountRef,
  material: KeyMaterial,
  oldKeys: AccountKeys,
  newPassword: string,
): Promise<Rewrapped> {
  const currentGeneration = material.keyGeneration ?? 0;
  const vaultKeyBytes = await unwrapVaultKey(
    material.protectedKey,
    oldKeys.wrapKey,
    material.kdf,
    material.salt,
    currentGeneration,
  );
  try {
    const salt = randomSalt();
    const kdf = { ...DEFAULT_KDF_PARAMS };
    const keyGeneration = currentGeneration + 1;
    const newKeys = await deriveKeys(newPassword, salt, kdf);
    const protectedKey = await wrapVaultKey(vaultKeyBytes, newKeys.wrapKey, kdf, salt, keyGeneration);
    const message = await changePassword({
      oldPassword: oldKeys.authKey,
      newPassword: newKeys.authKey,
      kdf,
      salt,
      protectedKey,
      keyGeneration,
    });
    await deviceMemory.rememberKdfParams(account, kdf);
    await deviceMemory.rememberKeyGeneration(account, keyGeneration);
    return { message, material: { kdf, salt, protectedKey, keyGeneration } };
  } finally {
    vaultKeyBytes.fill(0);
  }
}
