import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { PasswordProblems } from '@/components/generator/password-problems';
import { MasterPasswordStaysLocal } from '@/components/generator/master-password-stays-local';
import { StrengthMeter } from '@/components/generator/strength-meter';
import { PasswordInput } from '@/components/ui/password-input';
import { buttonPrimary, card } from '@/components/ui/styles';
import { serverMessageOf } from '@/lib/api-errors';
import { useKeyring } from '@/lib/keyring-context';
import { checkMasterPassword } from '@/lib/password-strength/master-password-policy';
import {
  changeMasterPassword,
  CurrentPasswordIncorrectError,
  fetchKeyMaterial,
  type AccountKeyMaterial,
} from '../lib/change-master-password';

const FAILED = '❌ Password update failed.';

/**
 * Change Password. The vault key is re-wrapped under the new password: with this tab's key
 * material when the vault is unlocked, else with the account's, fetched and checked (the
 * current password unwraps it locally, so a locked vault needs no new sign-in).
 */
export function ChangePasswordForm({ username, onChanged }: { username: string; onChanged?: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [checking, setChecking] = useState(false);
  const keyring = useKeyring();

  const mutation = useMutation({
    // The variables hold both passwords: let the mutation cache drop them at once.
    gcTime: 0,
    mutationFn: async (input: { current: string; next: string }) => {
      const material: AccountKeyMaterial = keyring.vault ?? (await fetchKeyMaterial(username));
      return changeMasterPassword(material, input.current, input.next);
    },
    onSuccess: ({ material }) => {
      keyring.replaceKeyMaterial(material);
      setCurrent('');
      setNext('');
      setConfirmation('');
      window.alert('✅ Password updated successfully');
      onChanged?.();
    },
    onError: (error) => {
      window.alert(error instanceof CurrentPasswordIncorrectError ? error.message : (serverMessageOf(error) ?? FAILED));
    },
  });

  // The spec's "fill both fields" first; then the master-password policy, in the browser:
  // a refused new password is never used, nothing is sent.
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!current || !next) {
      window.alert('Please fill both fields.');
      return;
    }
    if (checking || mutation.isPending) return;
    setChecking(true);
    try {
      const found = await checkMasterPassword(next, confirmation, [username]);
      setProblems(found);
      if (found.length === 0) mutation.mutate({ current, next });
    } finally {
      setChecking(false);
    }
  };

  return (
    <section aria-labelledby="change-password-title" className={card}>
      <h2 id="change-password-title" className="mb-4 text-xl font-semibold text-white">
        Change Password
      </h2>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <PasswordInput
          label="Current Password"
          name="current-password"
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
        />
        <PasswordInput
          label="New Password"
          name="new-password"
          autoComplete="new-password"
          value={next}
          onChange={(event) => setNext(event.target.value)}
        />
        <PasswordInput
          label="Confirm new password"
          name="confirm-new-password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
        />
        <StrengthMeter password={next} userInputs={[username]} />
        <MasterPasswordStaysLocal />
        <PasswordProblems problems={problems} />
        <button type="submit" className={buttonPrimary} disabled={mutation.isPending || checking}>
          Save Password
        </button>
        <p aria-live="polite" className="min-h-5 text-sm text-slate-400">
          {mutation.isPending ? 'Re-encrypting your vault key…' : ''}
        </p>
      </form>
    </section>
  );
}
