import { UnlockedVaultGate } from './unlocked-vault-gate';
import { VaultTools } from './vault-tools';
import { VaultView } from './vault-view';

/** /vault: the list of entries, behind the session check and the unlock (UnlockedVaultGate). */
export function VaultPage() {
  return (
    <UnlockedVaultGate heading="Your Password Vault">
      {(vault) => (
        <>
          <VaultTools />
          <VaultView key={vault.viewKey} vaultKey={vault.vaultKey} prefetchedEntries={vault.prefetchedEntries} />
        </>
      )}
    </UnlockedVaultGate>
  );
}
