import { KdfParamsRejectedError } from '@lockit/crypto';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { WebauthnCredential } from '@lockit/contract';
import { Dialog } from '@/components/ui/dialog';
import { PasswordInput } from '@/components/ui/password-input';
import { TextInput } from '@/components/ui/text-input';
import { serverMessageOf } from '@/lib/api-errors';
import { deriveKeys, KeyDerivationError } from '@/lib/derive-keys';
import { useKeyring } from '@/lib/keyring-context';
import { PasskeyCeremonyError } from '@/lib/passkey/prf-ceremonies';
import { removeCredential, renameCredential } from '../api/webauthn-credentials';
import { addWebauthnCredential, type CredentialAdded } from '../lib/add-webauthn-credential';
import { CurrentPasswordIncorrectError, fetchKeyMaterial, type AccountKeyMaterial } from '../lib/change-master-password';
import { DialogAlert, DialogButtons } from './dialog-parts';

/** Lockit's own readable refusals are shown as they are; else the server's message or `fallback`. */
function failureText(error: unknown, fallback: string): string {
  const own =
    error instanceof CurrentPasswordIncorrectError ||
    error instanceof PasskeyCeremonyError ||
    error instanceof KdfParamsRejectedError ||
    error instanceof KeyDerivationError;
  return own ? error.message : (serverMessageOf(error) ?? fallback);
}

/** This tab's key material when unlocked, else the account's, fetched and checked. */
function useAccountMaterial(username: string): () => Promise<AccountKeyMaterial> {
  const keyring = useKeyring();
  return async () => keyring.vault ?? (await fetchKeyMaterial(username));
}

export function AddCredentialDialog(props: {
  username: string;
  passkey: boolean;
  onClose: () => void;
  onAdded: (added: CredentialAdded) => void;
}) {
  const [name, setName] = useState(props.passkey ? 'My passkey' : 'My security key');
  const [password, setPassword] = useState('');
  const material = useAccountMaterial(props.username);
  const mutation = useMutation({
    // The variables hold the master password: let the mutation cache drop them at once.
    gcTime: 0,
    mutationFn: async (input: { name: string; masterPassword: string }) =>
      addWebauthnCredential({ material: await material(), passkey: props.passkey, ...input }),
    onSuccess: props.onAdded,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '' || name.trim() === '' || mutation.isPending) return;
    mutation.mutate({ name: name.trim(), masterPassword: password });
  };
  return (
    <Dialog title={props.passkey ? 'Add a passkey' : 'Add a security key'} onClose={props.onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <CredentialNameField value={name} onChange={setName} />
        <MasterPasswordField value={password} onChange={setPassword} />
        <FailureAlert mutation={mutation} fallback="The passkey could not be added. Try again." />
        <p aria-live="polite" className="min-h-5 text-sm text-slate-400">
          {mutation.isPending ? 'Follow your browser’s prompts…' : ''}
        </p>
        <DialogButtons busy={mutation.isPending} submit="Add" onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

export function RenameCredentialDialog(props: {
  credential: WebauthnCredential;
  onClose: () => void;
  onRenamed: (message: string) => void;
}) {
  const [name, setName] = useState(props.credential.name);
  const mutation = useMutation({
    mutationFn: (next: string) => renameCredential(props.credential.id, next),
    onSuccess: props.onRenamed,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || mutation.isPending) return;
    mutation.mutate(name.trim());
  };
  return (
    <Dialog title={`Rename ${props.credential.name}`} onClose={props.onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <CredentialNameField value={name} onChange={setName} />
        <FailureAlert mutation={mutation} fallback="The name could not be saved. Try again." />
        <DialogButtons busy={mutation.isPending} submit="Save" onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

export function RemoveCredentialDialog(props: {
  username: string;
  credential: WebauthnCredential;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const [password, setPassword] = useState('');
  const material = useAccountMaterial(props.username);
  const mutation = useMutation({
    gcTime: 0,
    mutationFn: async (masterPassword: string) => {
      const account = await material();
      const keys = await deriveKeys(masterPassword, account.salt, account.kdf);
      return removeCredential(props.credential.id, keys.authKey);
    },
    onSuccess: props.onRemoved,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '' || mutation.isPending) return;
    mutation.mutate(password);
  };
  return (
    <Dialog title={`Remove ${props.credential.name}?`} onClose={props.onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <p className="text-slate-300">
          It will no longer sign you in
          {props.credential.canUnlock ? ' or unlock your vault; its copy of your vault key is deleted' : ''}.
        </p>
        <MasterPasswordField value={password} onChange={setPassword} />
        <FailureAlert mutation={mutation} fallback="It could not be removed. Try again." />
        <DialogButtons busy={mutation.isPending} submit="Remove" danger onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

function CredentialNameField(props: { value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      label="Name"
      name="credential-name"
      maxLength={64}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      required
    />
  );
}

/** The master password a change to the account's credentials is confirmed with. */
function MasterPasswordField(props: { value: string; onChange: (value: string) => void }) {
  return (
    <PasswordInput
      label="Master Password"
      name="master-password"
      autoComplete="current-password"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      required
    />
  );
}

/** The mutation's failure as failureText words it, once it failed. */
function FailureAlert(props: { mutation: { isError: boolean; error: unknown }; fallback: string }) {
  return <DialogAlert message={props.mutation.isError ? failureText(props.mutation.error, props.fallback) : null} />;
}
