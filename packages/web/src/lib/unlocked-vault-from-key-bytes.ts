import type { VaultAccount } from '@lockit/client-core';
import { deriveVaultIntegrityKey, importVaultKey } from '@lockit/crypto';
import type { UnlockedVault } from './keyring';
import { sealForReload } from './reload-unlock/reload-vault';

export type { VaultAccount } from '@lockit/client-core';

/**
 * The one way raw vault key bytes become this tab's unlocked vault, for every unlock path that
 * holds them (password sign-in, Unlock, passkey sign-in, Unlock with a passkey): import the
 * vault key, derive the integrity key (decision 0053) and seal a copy for a reload (0048).
 *
 * Security invariant: `bytes` are wiped (zero-filled) before this returns or throws, on every
 * path, and the caller must not use them afterwards. What remains are NON-extractable keys
 * only: the vault key, the integrity key and the reload seal's tab key.
 *
 * Throws what importVaultKey or deriveVaultIntegrityKey throw (the bytes are still wiped); a
 * failed reload seal only means a reload will ask for the password.
 */
export async function unlockedVaultFromKeyBytes(bytes: Uint8Array, account: VaultAccount): Promise<UnlockedVault> {
  try {
    const vaultKey = await importVaultKey(bytes);
    const integrityKey = await deriveVaultIntegrityKey(bytes);
    const reloadSeal = await sealForReload(bytes);
    return { ...account, vaultKey, integrityKey, reloadSeal };
  } finally {
    bytes.fill(0);
  }
}
