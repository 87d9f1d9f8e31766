import { buttonDanger, buttonPrimary, buttonSecondary } from '@/components/ui/styles';

/** Why a dialog's last attempt failed, announced as it appears; nothing while there is none. */
export function DialogAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-rose-300">
      {message}
    </p>
  );
}

/** A dialog form's Cancel and submit buttons; submit is disabled while `busy`, so it cannot send twice. */
export function DialogButtons(props: { busy: boolean; submit: string; danger?: boolean; onCancel: () => void }) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <button type="button" className={buttonSecondary} onClick={props.onCancel}>
        Cancel
      </button>
      <button type="submit" className={props.danger ? buttonDanger : buttonPrimary} disabled={props.busy}>
        {props.submit}
      </button>
    </div>
  );
}
