import { useSyncExternalStore } from 'react';
import type { IntegrityReport, VaultIntegrity } from '@lockit/client-core';
import { INTEGRITY_ALERT_HEADING, integrityReportLines } from './integrity-report-text';

const noSubscribe = () => () => {};

/**
 * A live catch-up the whole-vault check refused (use-live-vault.ts): said above the list, and
 * nothing of what the server served is shown; the list stays as last checked. Not while the
 * vault's own check has already failed: its alert (IntegrityAlert) says what is wrong and
 * refuses every write, and a second alert would only repeat it.
 */
export function SyncRefusedAlert({ report, integrity }: { report: IntegrityReport | null; integrity: VaultIntegrity | null }) {
  const vaultReport = useSyncExternalStore(integrity?.subscribe ?? noSubscribe, () => integrity?.report ?? null);
  if (!report || vaultReport) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-500/60 bg-red-950/60 p-4 text-sm text-red-100">
      <p className="font-semibold text-white">{INTEGRITY_ALERT_HEADING}</p>
      {integrityReportLines(report).map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p>Lockit did not show the changes your server sent; your vault is shown as it was last checked.</p>
    </div>
  );
}
