import { ConfirmDialog } from './confirm-dialog';

/** "Delete forever" from Trash: the one delete that cannot be undone. */
export function PurgeEntryDialog(props: { onConfirm: () => Promise<void>; onClose: () => void }) {
  return (
    <ConfirmDialog
      title="Delete Forever"
      message="This entry and its history will be deleted for good. This cannot be undone."
      confirmLabel="Delete forever"
      {...props}
    />
  );
}
