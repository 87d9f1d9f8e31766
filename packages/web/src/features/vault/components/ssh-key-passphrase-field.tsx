import { useState, type KeyboardEvent } from 'react';
import { decryptSshPrivateKey, SshKeyError } from '@lockit/client-core';
import { TextInput } from '@/components/ui/text-input';

const button =
  'rounded-lg border border-slate-700 px-3 py-1.5 text-sm text-slate-200 hover:bg-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-cyan-400 disabled:opacity-50';

/**
 * Asks for the passphrase of a pasted OpenSSH key and opens the key on this device (the client
 * core's decryptSshPrivateKey); `onOpened` gets the same key unencrypted, which the item then
 * holds like any other (the vault is its encryption). The passphrase is kept only while typed:
 * it is never saved, and is cleared once the key is open.
 */
export function SshKeyPassphraseField({ privateKey, onOpened }: { privateKey: string; onOpened(opened: string): void }) {
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const open = async () => {
    setBusy(true);
    setError(null);
    try {
      const opened = await decryptSshPrivateKey(privateKey, passphrase);
      setPassphrase('');
      onOpened(opened);
    } catch (caught) {
      setError(caught instanceof SshKeyError ? caught.message : 'This key could not be opened.');
    } finally {
      setBusy(false);
    }
  };

  // Enter opens the key rather than submitting the item's form.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (!busy && passphrase !== '') void open();
  };

  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-300">
        This key is protected by a passphrase. Type it to open the key here: Lockit keeps the key without the passphrase,
        encrypted by your vault.
      </p>
      <TextInput
        label="Key passphrase"
        type="password"
        autoComplete="off"
        value={passphrase}
        onChange={(event) => setPassphrase(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="button" className={`${button} self-start`} disabled={busy || passphrase === ''} onClick={() => void open()}>
        {busy ? 'Opening key…' : 'Open key'}
      </button>
      {error !== null && (
        <p role="alert" className="text-sm text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
