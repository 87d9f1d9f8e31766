import type { Keyring } from '@/lib/keyring';
import { loadVaultSnapshot } from './load-vault-snapshot';
import { VaultIntegrity } from './vault-integrity';

const trackers = new WeakMap<Keyring, VaultIntegrity>();

/**
 * This tab's VaultIntegrity for the vault its keyring holds (one per tab, so every write of
 * the tab goes through one queue; a new one for another vault key), or null while locked.
 */
export function vaultIntegrityOf(keyring: Keyring): VaultIntegrity | null {
  const vault = keyring.vault;
  if (!vault) return null;
  const held = trackers.get(keyring);
  if (held?.integrityKey === vault.integrityKey) return held;
  const { integrityKey, vaultKey, account } = vault;
  const tracker = new VaultIntegrity(integrityKey, vaultKey, account, (names) =>
    loadVaultSnapshot(integrityKey, vaultKey, names),
  );
  trackers.set(keyring, tracker);
  return tracker;
}
