import { useRef, useState } from 'react';
import type { AdminUser } from '@lockit/contract';
import { Dialog } from '@/components/ui/dialog';
import { buttonDanger, buttonSecondary } from '@/components/ui/styles';
import { useSignInAgainOn401 } from '../api/get-admin-session';
import { useUserAction, type UserAction } from '../api/user-action';

const small = 'px-3 py-1.5 text-sm';

/** Disable or enable, end sessions, delete (after a confirmation naming the account). */
export function UserActions({ user }: { user: AdminUser }) {
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const action = useUserAction();
  useSignInAgainOn401(action.error);

  const run = (kind: UserAction) => {
    action.mutate({ action: kind, userId: user.id }, { onSettled: () => setConfirmingDelete(false) });
  };

  return (
    <div className="flex flex-wrap gap-2 md:justify-end">
      {user.disabled ? (
        <button
          type="button"
          className={`${buttonSecondary} ${small}`}
          onClick={() => run('enable')}
          aria-label={`Enable ${user.username}`}
          disabled={action.isPending}
        >
          Enable
        </button>
      ) : (
        <button
          type="button"
          className={`${buttonSecondary} ${small}`}
          onClick={() => run('disable')}
          aria-label={`Disable ${user.username}`}
          disabled={action.isPending}
        >
          Disable
        </button>
      )}
      <button
        type="button"
        className={`${buttonSecondary} ${small}`}
        onClick={() => run('end-sessions')}
        aria-label={`End sessions of ${user.username}`}
        disabled={action.isPending}
      >
        End sessions
      </button>
      <button
        type="button"
        className={`${buttonDanger} ${small}`}
        onClick={() => setConfirmingDelete(true)}
        aria-label={`Delete ${user.username}`}
        disabled={action.isPending}
      >
        Delete
      </button>
      {confirmingDelete && (
        <Dialog title="Delete account" onClose={() => setConfirmingDelete(false)} initialFocusRef={cancelRef}>
          <p className="mb-6 text-slate-300">
            Delete <strong className="break-all text-white">{user.username}</strong> ({user.email}) and every password it saved,
            for good? This cannot be undone.
          </p>
          <div className="flex justify-end gap-3">
            <button type="button" className={buttonDanger} onClick={() => run('delete')} disabled={action.isPending}>
              Yes, delete
            </button>
            <button ref={cancelRef} type="button" className={buttonSecondary} onClick={() => setConfirmingDelete(false)}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
