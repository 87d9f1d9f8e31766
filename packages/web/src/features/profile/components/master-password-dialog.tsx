import type { AccountKeys } from '@lockit/crypto';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { PasswordInput } from '@/components/ui/password-input';
import { serverMessageOf } from '@/lib/api-errors';
import { useKeyring } from '@/lib/keyring-context';
import { CurrentPasswordIncorrectError, fetchKeyMaterial } from '../lib/change-master-password';
import { deriveReauthKeys } from '../lib/reauth-key';
import { DialogAlert, DialogButtons } from './dialog-parts';

interface MasterPasswordDialogProps<T> {
  title: string;
  /** What will happen, in a sentence. */
  description: string;
  confirmLabel: string;
  username: string;
  /** The change itself, given the authKey proved from the master password (and both its keys, for a key rotation's wrap). */
  action: (authKey: string, keys: AccountKeys) => Promise<T>;
  onDone: (result: T) => void;
  onClose: () => void;
}

/**
 * Asks the master password before a sensitive two-factor change. The password is proved
 * locally (it must unwrap the vault key: this tab's key material, or the account's when the
 * vault is locked) and only the authKey derived from it is sent.
 */
export function MasterPasswordDialog<T>(props: MasterPasswordDialogProps<T>) {
  const { title, description, confirmLabel, username, action, onDone, onClose } = props;
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const keyring = useKeyring();

  const mutation = useMutation({
    // The variables hold the master password: let the mutation cache drop them at once.
    gcTime: 0,
    mutationFn: async (masterPassword: string) => {
      const material = keyring.vault ?? (await fetchKeyMaterial(username));
      const keys = await deriveReauthKeys(material, masterPassword);
      return action(keys.authKey, keys);
    },
    onSuccess: (result) => {
      setPassword('');
      onDone(result);
    },
    onError: (failure) =>
      setError(
        failure instanceof CurrentPasswordIncorrectError
          ? 'That master password is not correct.'
          : (serverMessageOf(failure) ?? 'That did not work. Please try again later.'),
      ),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || mutation.isPending) return;
    setError(null);
    mutation.mutate(password);
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <p className="text-sm text-slate-300">{description}</p>
        <PasswordInput
          label="Master password"
          name="master-password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
        <DialogAlert message={error} />
        <DialogButtons busy={mutation.isPending} submit={mutation.isPending ? 'Checking…' : confirmLabel} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
