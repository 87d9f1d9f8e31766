import { useSyncExternalStore } from 'react';
import type { VaultIntegrity } from './vault-integrity';
import { INTEGRITY_ALERT_HEADING, integrityReportLines } from './integrity-report-text';
import { INTEGRITY_REFUSED } from './vault-integrity';

const noSubscribe = () => () => {};

/**
 * Above the list, when the whole-vault check failed (decision 0053): what is wrong, and that
 * nothing will be saved. The entries the server did serve still show (each is authenticated on
 * its own); every change is refused until the vault is opened again.
 */
export function IntegrityAlert({ integrity }: { integrity: VaultIntegrity | null }) {
  const report = useSyncExternalStore(integrity?.subscribe ?? noSubscribe, () => integrity?.report ?? null);
  if (!report) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-500/60 bg-red-950/60 p-4 text-sm text-red-100">
      <p className="font-semibold text-white">{INTEGRITY_ALERT_HEADING}</p>
      {integrityReportLines(report).map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p>{INTEGRITY_REFUSED}</p>
    </div>
  );
}
