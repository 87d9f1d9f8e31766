import { useRef, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonDanger, buttonSecondary } from '@/components/ui/styles';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  /** Settles when the action is over, whatever its outcome (failures are the caller's to show). */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** Why the last confirm failed, shown in the dialog, which then stays open to try again or cancel. */
  error?: string | null;
}

/** A destructive action's confirmation. Focus starts on Cancel, the harmless choice. */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose, error = null }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);

  const confirm = () => {
    setBusy(true);
    // A caller that keeps the dialog open after a failure gets its button back.
    void onConfirm().finally(() => setBusy(false));
  };

  return (
    <Dialog title={title} onClose={onClose} initialFocusRef={cancelRef}>
      <p className="mb-6 text-slate-300">{message}</p>
      {error !== null && (
        <p role="alert" className="mb-6 rounded-lg border border-red-500/50 bg-red-950/60 px-3 py-2 text-sm text-red-100">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-3">
        <button type="button" className={buttonDanger} onClick={confirm} disabled={busy}>
          {confirmLabel}
        </button>
        <button ref={cancelRef} type="button" className={buttonSecondary} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
