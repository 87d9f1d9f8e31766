import { loadVaultSnapshot, VaultIntegrity } from '@lockit/client-core';
import { deviceMemory } from '@/lib/device-memory';
import { api } from '@/lib/http';
import type { Keyring } from '@/lib/keyring';
import { coreLog } from '@/lib/log';

const trackers = new WeakMap<Keyring, VaultIntegrity>();

/**
 * This tab's VaultIntegrity (the client core's) for the vault its keyring holds (one per tab,
 * so every write of the tab goes through one queue; a new one for another vault key), or null
 * while locked.
 */
export function vaultIntegrityOf(keyring: Keyring): VaultIntegrity | null {
  const vault = keyring.vault;
  if (!vault) return null;
  const held = trackers.get(keyring);
  if (held?.integrityKey === vault.integrityKey) return held;
  const { integrityKey, vaultKey, account } = vault;
  const tracker = new VaultIntegrity(integrityKey, vaultKey, account, {
    api,
    memory: deviceMemory,
    load: (names) => loadVaultSnapshot(api, integrityKey, vaultKey, names),
    log: coreLog,
  });
  trackers.set(keyring, tracker);
  return tracker;
}
