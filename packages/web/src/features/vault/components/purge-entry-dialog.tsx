import { useRef, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonDanger, buttonSecondary } from '@/components/ui/styles';

interface PurgeEntryDialogProps {
  /** Settles when the purge is over, whatever its outcome (failures are the caller's to show). */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** "Delete forever" from Trash: the one delete that cannot be undone. Focus starts on Cancel. */
export function PurgeEntryDialog({ onConfirm, onClose }: PurgeEntryDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [deleting, setDeleting] = useState(false);

  const confirm = () => {
    setDeleting(true);
    void onConfirm();
  };

  return (
    <Dialog title="Delete Forever" onClose={onClose} initialFocusRef={cancelRef}>
      <p className="mb-6 text-slate-300">This entry and its history will be deleted for good. This cannot be undone.</p>
      <div className="flex justify-end gap-3">
        <button type="button" className={buttonDanger} onClick={confirm} disabled={deleting}>
          Delete forever
        </button>
        <button ref={cancelRef} type="button" className={buttonSecondary} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
