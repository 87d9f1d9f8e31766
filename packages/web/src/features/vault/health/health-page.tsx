import { useEffect } from 'react';
import { UnlockedVaultGate } from '../components/unlocked-vault-gate';
import { VaultTools } from '../components/vault-tools';
import { prewarmHealthWorker } from './health-client';
import { HealthView } from './health-view';

/** /vault/health: the vault health report, behind the session check and the unlock. */
export function HealthPage() {
  // The worker and zxcvbn load while the vault unlocks and opens, not after.
  useEffect(() => prewarmHealthWorker(), []);
  return (
    <UnlockedVaultGate heading="Vault health">
      {(vault) => (
        <>
          <VaultTools />
          <HealthView key={vault.viewKey} vaultKey={vault.vaultKey} prefetchedEntries={vault.prefetchedEntries} />
        </>
      )}
    </UnlockedVaultGate>
  );
}
