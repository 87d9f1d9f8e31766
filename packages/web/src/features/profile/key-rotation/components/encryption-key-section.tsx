import { useState } from 'react';
import { buttonPrimary, card } from '@/components/ui/styles';
import { useUnlockedVault } from '@/lib/keyring-context';
import { MasterPasswordDialog } from '../../components/master-password-dialog';
import { afterRotationNotes, progressText } from '@lockit/client-core';
import { useKeyRotation } from './use-key-rotation';

interface EncryptionKeySectionProps {
  username: string;
  /** The master password was just changed here: offer the rotation in a line of its own. */
  offer?: boolean;
}

/**
 * "Encryption key": rotates the vault key. Asks for the master password, then
 * shows the progress in words and numbers until the key is rotated or a plain error says it
 * was not (and the vault is unchanged).
 */
export function EncryptionKeySection({ username, offer = false }: EncryptionKeySectionProps) {
  const vault = useUnlockedVault();
  const { view, rotate } = useKeyRotation();
  const [asking, setAsking] = useState(false);
  const running = view.status === 'running';

  return (
    <section aria-labelledby="encryption-key-title" className={card}>
      <h2 id="encryption-key-title" className="mb-2 text-xl font-semibold text-white">
        Encryption key
      </h2>
      {offer && view.status !== 'done' && (
        <p className="mb-3 rounded-lg border border-cyan-800 bg-cyan-950/40 px-3 py-2 text-sm break-words text-cyan-100">
          You changed your master password. Rotate your encryption key too?
        </p>
      )}
      <p className="mb-2 text-sm break-words text-slate-400">
        Rotating makes a new key and re-encrypts every item, version and folder with it. An old copy of the database and your old
        password open nothing you save from now on.
      </p>
      <p className="mb-4 text-sm break-words text-slate-400">
        Your other devices are signed out, and passkeys that unlock your vault must be set up to unlock it again.
      </p>
      {vault === null && (
        <p id="encryption-key-locked" className="mb-4 text-sm text-slate-300">
          Unlock your vault in this tab to rotate its key.
        </p>
      )}
      <button
        type="button"
        className={`${buttonPrimary} w-full sm:w-auto`}
        disabled={vault === null || running}
        aria-describedby={vault === null ? 'encryption-key-locked' : undefined}
        onClick={() => setAsking(true)}
      >
        Rotate my encryption key
      </button>
      {view.status === 'running' && (
        <div role="status" className="mt-4 flex flex-col gap-2">
          <p className="text-sm text-slate-200">{progressText(view.progress)}</p>
          <progress
            aria-label="Key rotation progress"
            className="h-2 w-full"
            max={'total' in view.progress ? Math.max(view.progress.total, 1) : undefined}
            value={'done' in view.progress ? view.progress.done : undefined}
          />
        </div>
      )}
      {view.status === 'done' && (
        <div role="status" className="mt-4 text-sm text-emerald-300">
          <p>Your encryption key was rotated.</p>
          {afterRotationNotes(view.committed).map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
      )}
      {view.status === 'failed' && (
        <p role="alert" className="mt-4 text-sm break-words text-rose-300">
          {view.message}
        </p>
      )}
      {asking && (
        <MasterPasswordDialog
          title="Rotate your encryption key?"
          description="Enter your master password. Keep this tab open for the few seconds it takes."
          confirmLabel="Rotate"
          username={username}
          action={async (authKey, keys) => ({ authKey, wrapKey: keys.wrapKey })}
          onDone={(keys) => {
            setAsking(false);
            void rotate(keys);
          }}
          onClose={() => setAsking(false)}
        />
      )}
    </section>
  );
}
