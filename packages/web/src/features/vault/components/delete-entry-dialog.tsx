import { ConfirmDialog } from './confirm-dialog';

/** The spec's delete confirmation (the entry goes to Trash). */
export function DeleteEntryDialog(props: { onConfirm: () => Promise<void>; onClose: () => void }) {
  return (
    <ConfirmDialog
      title="Delete Password"
      message="Are you sure you want to delete this password?"
      confirmLabel="Delete"
      {...props}
    />
  );
}
