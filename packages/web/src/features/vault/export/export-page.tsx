import { UnlockedVaultGate } from '../components/unlocked-vault-gate';
import { ExportForm } from './export-form';

/** /vault/export: the whole vault to a file, after the master password is asked again. */
export function ExportPage() {
  return (
    <UnlockedVaultGate heading="Export">
      {(vault) => <ExportForm key={vault.viewKey} vaultKey={vault.vaultKey} />}
    </UnlockedVaultGate>
  );
}
