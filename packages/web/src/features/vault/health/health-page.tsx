import { UnlockedVaultGate } from '../components/unlocked-vault-gate';
import { VaultTools } from '../components/vault-tools';
import { HealthView } from './health-view';

/** /vault/health: the vault health report, behind the session check and the unlock. */
export function HealthPage() {
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
