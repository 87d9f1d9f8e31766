import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { buttonDanger, buttonSecondary, card } from '@/components/ui/styles';
import { paths } from '@/config/paths';
import { useDeleteAccount } from '../api/delete-account';

export function DeleteAccountSection() {
  const [confirming, setConfirming] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  const remove = useDeleteAccount();

  const onConfirm = () => {
    remove.mutate(undefined, {
      onSuccess: () => navigate(paths.signUp),
      onError: () => {
        setConfirming(false);
        window.alert('Failed to delete account');
      },
    });
  };

  return (
    <section aria-labelledby="delete-account-title" className={card}>
      <h2 id="delete-account-title" className="mb-2 text-xl font-semibold text-white">
        Delete Account
      </h2>
      <p className="mb-4 text-sm text-slate-400">This removes your account and every saved password for good.</p>
      <button type="button" className={buttonDanger} onClick={() => setConfirming(true)}>
        Delete Account
      </button>
      {confirming && (
        <Dialog title="Delete Account" onClose={() => setConfirming(false)} initialFocusRef={cancelRef}>
          <p className="mb-6 text-slate-300">Are you sure you want to permanently delete your account?</p>
          <div className="flex justify-end gap-3">
            <button type="button" className={buttonDanger} onClick={onConfirm} disabled={remove.isPending}>
              Yes, Delete
            </button>
            <button ref={cancelRef} type="button" className={buttonSecondary} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
