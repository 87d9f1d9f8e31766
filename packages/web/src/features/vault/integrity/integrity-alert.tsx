import { useState, useSyncExternalStore } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { logFailure } from '@/lib/log';
import type { IntegrityReport } from '@lockit/client-core';
import type { VaultIntegrity } from '@lockit/client-core';
import { INTEGRITY_ALERT_HEADING, integrityReportLines } from './integrity-report-text';
import { INTEGRITY_REFUSED } from '@lockit/client-core';

const noSubscribe = () => () => {};

export const USE_SERVER_COPY = "Use the server's copy";

/**
 * Above the list, when the whole-vault check failed (decision 0053): what is wrong, and that
 * nothing will be saved. The entries the server did serve still show (each is authenticated on
 * its own); every change is refused until the vault is opened again. When the served vault is
 * whole and only older (what an operator's restore of a backup looks like), the person may take
 * it, once, after being told what is lost: never silently.
 */
export function IntegrityAlert({ integrity, onAccepted }: { integrity: VaultIntegrity | null; onAccepted?: () => void }) {
  const report = useSyncExternalStore(integrity?.subscribe ?? noSubscribe, () => integrity?.report ?? null);
  const [confirming, setConfirming] = useState(false);
  if (!report || !integrity) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-500/60 bg-red-950/60 p-4 text-sm text-red-100">
      <p className="font-semibold text-white">{INTEGRITY_ALERT_HEADING}</p>
      {integrityReportLines(report).map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p>{INTEGRITY_REFUSED}</p>
      {report.olderButWhole && (
        <>
          <p className="mt-2">If your server&apos;s operator restored a backup, you can use the server&apos;s copy instead.</p>
          <button type="button" className={`${buttonSecondary} mt-2`} onClick={() => setConfirming(true)}>
            {USE_SERVER_COPY}…
          </button>
        </>
      )}
      {confirming && (
        <AcceptOlderCopyDialog
          report={report}
          integrity={integrity}
          onClose={() => setConfirming(false)}
          onAccepted={onAccepted}
        />
      )}
    </div>
  );
}

function AcceptOlderCopyDialog({
  report,
  integrity,
  onClose,
  onAccepted,
}: {
  report: IntegrityReport;
  integrity: VaultIntegrity;
  onClose: () => void;
  onAccepted: (() => void) | undefined;
}) {
  const [busy, setBusy] = useState(false);
  const served = report.counters.served;
  const accept = () => {
    setBusy(true);
    integrity
      .acceptServedCopy()
      .then(() => onAccepted?.())
      .catch((error: unknown) => logFailure("Using the server's copy of the vault", error))
      .finally(onClose);
  };
  return (
    <Dialog title="Use the server's older copy?" onClose={onClose}>
      <p>
        This browser saw your vault at change {report.counters.remembered}; the server now has{' '}
        {served === null ? 'no record of its changes' : `change ${served}`}. Changes made after that are not in the server&apos;s
        copy, and they will not come back: entries added or edited since then are lost, and entries deleted since then may return.
      </p>
      <p className="mt-2">
        Do this only if you know the server was restored from a backup. Lockit will then check your vault against the
        server&apos;s copy from now on.
      </p>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="button" className={buttonPrimary} onClick={accept} disabled={busy}>
          {USE_SERVER_COPY}
        </button>
      </div>
    </Dialog>
  );
}
