import { useUnlockedVault } from '@/lib/keyring-context';
import { UnlockedVaultGate } from '../../components/unlocked-vault-gate';
import { VaultTools } from '../../components/vault-tools';
import { ImportScreen } from './import-screen';

/** /vault/import: behind the session check and the unlock, like every vault page. */
export function ImportPage() {
  const unlocked = useUnlockedVault();
  return (
    <UnlockedVaultGate heading="Import">
      {(vault) => (
        <>
          <VaultTools />
          <ImportScreen key={vault.viewKey} vaultKey={vault.vaultKey} account={unlocked?.username ?? ''} />
        </>
      )}
    </UnlockedVaultGate>
  );
}
