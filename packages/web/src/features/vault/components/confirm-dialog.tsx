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
}

/** A destructive action's confirmation. Focus starts on Cancel, the harmless choice. */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);

  const confirm = () => {
    setBusy(true);
    void onConfirm();
  };

  return (
    <Dialog title={title} onClose={onClose} initialFocusRef={cancelRef}>
      <p className="mb-6 text-slate-300">{message}</p>
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
