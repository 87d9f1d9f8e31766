import { DEFAULT_KDF_PARAMS, randomSalt, unwrapVaultKey, wrapVaultKey, type AccountKeys } from '@lockit/crypto';
import type { AccountRef } from '../device-memory/account-ref';
import type { KeyMaterial, KeyPlatform } from './client-keys';

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
 * new wrap binds generation current + 1, which the server stores only if it is exactly that, and
 * the key epoch as it was (the key does not change).
 * Once the server said yes, this device remembers the new params and generation, so a server
 * that kept (or later serves again) the old ones is caught at the next sign-in.
 */
export async function rewrapVaultKey(
  platform: Pick<KeyPlatform<unknown>, 'api' | 'memory' | 'derive'>,
  account: AccountRef,
  material: KeyMaterial,
  oldKeys: AccountKeys,
  newPassword: string,
): Promise<Rewrapped> {
  const currentGeneration = material.keyGeneration ?? 0;
  // The same vault key, so the same key epoch: passkeys' unlock keys keep opening.
  const keyEpoch = material.keyEpoch ?? 0;
  const vaultKeyBytes = await unwrapVaultKey(
    material.protectedKey,
    oldKeys.wrapKey,
    material.kdf,
    material.salt,
    currentGeneration,
    keyEpoch,
  );
  try {
    const salt = randomSalt();
    const kdf = { ...DEFAULT_KDF_PARAMS };
    const keyGeneration = currentGeneration + 1;
    const newKeys = await platform.derive(newPassword, salt, kdf);
    const protectedKey = await wrapVaultKey(vaultKeyBytes, newKeys.wrapKey, kdf, salt, keyGeneration, keyEpoch);
    const answer = await platform.api.call('change-password', {
      body: { oldPassword: oldKeys.authKey, newPassword: newKeys.authKey, kdf, salt, protectedKey, keyGeneration },
    });
    await platform.memory.rememberKdfParams(account, kdf);
    await platform.memory.rememberKeyGeneration(account, keyGeneration);
    return { message: answer.message, material: { kdf, salt, protectedKey, keyGeneration, keyEpoch } };
  } finally {
    vaultKeyBytes.fill(0);
  }
}

/**
 * An account below today's KDF floor, just opened on a device that knew it: re-wrap the vault
 * key under the defaults with the same password, so the weak verifier leaves the server with
 * no action from the person. Best effort: if it fails the vault stays open and the next
 * sign-in or Unlock here tries again.
 */
export async function upgradeBelowFloor<V extends KeyMaterial & { account: AccountRef }>(
  platform: Pick<KeyPlatform<unknown>, 'api' | 'memory' | 'derive'>,
  vault: V,
  keys: AccountKeys,
  password: string,
): Promise<V> {
  try {
    const { material } = await rewrapVaultKey(platform, vault.account, vault, keys, password);
    return { ...vault, ...material };
  } catch {
    return vault;
  }
}
