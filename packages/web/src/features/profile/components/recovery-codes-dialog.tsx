import { useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { copyWithClear } from '@/lib/clipboard';

/**
 * Recovery codes, shown once: the server keeps only their hashes, so closing this dialog is
 * the last time they can be seen. Copy all, download as a .txt file, or write them down.
 */
export function RecoveryCodesDialog({ codes, onClose }: { codes: readonly string[]; onClose: () => void }) {
  const [note, setNote] = useState<string | null>(null);
  const text = `Lockit recovery codes (each works once)\n\n${codes.join('\n')}\n`;

  const copy = () =>
    copyWithClear(text).then(
      () => setNote('Copied. The clipboard is cleared again after a short while.'),
      (error: unknown) => setNote(error instanceof Error ? error.message : 'Copying failed.'),
    );

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'lockit-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Dialog title="Your recovery codes" onClose={onClose}>
      <p className="mb-4 text-sm text-slate-300">
        Each code signs you in once if you lose your authenticator app or security key. Save them somewhere safe now: Lockit will
        not show them again.
      </p>
      <ol aria-label="Recovery codes" className="mb-4 grid grid-cols-1 gap-2 font-mono text-white sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-800 px-3 py-1 text-center tracking-wider">
            {code}
          </li>
        ))}
      </ol>
      {note && (
        <p role="status" className="mb-3 text-sm text-emerald-300">
          {note}
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
        <button type="button" className={buttonSecondary} onClick={() => void copy()}>
          Copy all
        </button>
        <button type="button" className={buttonSecondary} onClick={download}>
          Download as .txt
        </button>
        <button type="button" className={buttonPrimary} onClick={onClose}>
          I have saved them
        </button>
      </div>
    </Dialog>
  );
}
