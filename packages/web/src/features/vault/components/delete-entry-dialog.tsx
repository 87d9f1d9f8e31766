import { useRef, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonDanger, buttonSecondary } from '@/components/ui/styles';

interface DeleteEntryDialogProps {
  /** Settles when the delete is over, whatever its outcome (failures are the caller's to log). */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** The delete confirmation. Focus starts on Cancel, the harmless choice. */
export function DeleteEntryDialog({ onConfirm, onClose }: DeleteEntryDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [deleting, setDeleting] = useState(false);

  const confirm = () => {
    setDeleting(true);
    void onConfirm();
  };

  return (
    <Dialog title="Delete Password" onClose={onClose} initialFocusRef={cancelRef}>
      <p className="mb-6 text-slate-300">Are you sure you want to delete this password?</p>
      <div className="flex justify-end gap-3">
        <button type="button" className={buttonDanger} onClick={confirm} disabled={deleting}>
          Delete
        </button>
        <button ref={cancelRef} type="button" className={buttonSecondary} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
