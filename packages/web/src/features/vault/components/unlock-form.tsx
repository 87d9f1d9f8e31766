import { NoOfflineCopyError, OfflineCopyDamagedError, UnknownSessionAccountError } from '@lockit/client-core';
import { KdfParamsRejectedError } from '@lockit/crypto';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { listEntries } from '@/api/list-entries';
import { PasswordInput } from '@/components/ui/password-input';
import { SecureContextNotice, useSecureContext } from '@/components/ui/secure-context-notice';
import { buttonPrimary, card } from '@/components/ui/styles';
import { KeyDerivationError } from '@/lib/derive-keys';
import type { UnlockedVault } from '@/lib/keyring';
import { logFailure } from '@/lib/log';
import { CANNOT_UNLOCK_TEXT, cannotUnlockReasonOf } from '@/lib/passkey/passkey-sign-in';
import { usePasskeyUnlockOffered } from '../api/passkey-unlock-offered';
import { prewarmCryptoWorkers } from '../lib/crypto-worker-pool';
import { unlockVault, WrongMasterPasswordError } from '../lib/unlock-vault';
import { PasskeyUnlockButton } from './passkey-unlock-button';
import { unlockOffline } from '@/lib/offline/unlock-offline';
import type { OfflineFallback } from '@/lib/offline/use-offline-fallback';
import { servedAtText } from './offline-notice';

const UNREACHABLE = "Lockit could not get your vault's key from the server. Please try again.";

/** Lockit's own readable sentences (never text the server chose) are shown as they are. */
function isOwnRefusal(error: unknown): error is Error {
  return (
    error instanceof WrongMasterPasswordError ||
    error instanceof KdfParamsRejectedError ||
    error instanceof KeyDerivationError ||
    error instanceof UnknownSessionAccountError ||
    error instanceof NoOfflineCopyError ||
    error instanceof OfflineCopyDamagedError
  );
}

const messageFor = (error: unknown) => (isOwnRefusal(error) ? error.message : UNREACHABLE);

/**
 * A live session whose vault key this tab does not hold (after a reload or the idle lock):
 * the master password alone unlocks it again, without a new sign-in; so does a passkey that
 * holds an unlock key, when the account has one.
 */
interface UnlockFormProps {
  username: string | undefined;
  /**
   * Called with the unlocked vault and the entry list, whose fetch started while the key was
   * being derived (it is ciphertext; the key is what takes time).
   */
  onUnlocked: (vault: UnlockedVault, entries: Promise<unknown[]>) => void;
  /** The server is unreachable: the password opens this device's offline copy instead. */
  offline?: OfflineFallback | undefined;
}

export function UnlockForm({ username, onUnlocked, offline }: UnlockFormProps) {
  const titleId = useId();
  const [password, setPassword] = useState('');
  // A passkey sign-in that opened the session but not the vault says why (lib/passkey).
  const passkeyReason = cannotUnlockReasonOf(useLocation().state);
  const passkeyOffered = usePasskeyUnlockOffered();
  const [passkeyPending, setPasskeyPending] = useState(false);
  // Only the outcome of the way tried last is shown, so two alerts never disagree.
  const [lastTried, setLastTried] = useState<'password' | 'passkey'>('password');

  const secure = useSecureContext();
  const mutation = useMutation({
    // The variables hold the master password: let the mutation cache drop them at once.
    gcTime: 0,
    mutationFn: async (masterPassword: string) => {
      if (offline) {
        const opened = await unlockOffline(masterPassword, { whileDeriving: prewarmCryptoWorkers });
        return { vault: opened.vault, entries: Promise.resolve(opened.entries) };
      }
      let entries: Promise<unknown[]> | undefined;
      const vault = await unlockVault(masterPassword, username ?? '', {
        whileDeriving: () => {
          entries = listEntries();
          prewarmCryptoWorkers();
          // Awaited by the vault once unlocked; a failure then is its to log.
          entries.catch(() => {});
        },
      });
      return { vault, entries: entries ?? listEntries() };
    },
    onSuccess: ({ vault, entries }) => {
      setPassword('');
      onUnlocked(vault, entries);
    },
    onError: (error) => {
      if (!isOwnRefusal(error)) logFailure('Unlocking the vault', error);
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '' || mutation.isPending || passkeyPending) return;
    setLastTried('password');
    mutation.mutate(password);
  };

  return (
    <div className="mx-auto mt-8 max-w-md">
      <SecureContextNotice />
      <form onSubmit={onSubmit} aria-labelledby={titleId} className={`${card} flex flex-col gap-4`}>
        <h2 id={titleId} className="text-xl font-semibold text-white">
          Unlock
        </h2>
        <p className="text-sm text-slate-300">
          {username ? (
            <>
              Your vault is locked. You are signed in as <strong className="text-white">{username}</strong>; enter your master
              password to unlock it.
            </>
          ) : (
            'Your vault is locked. Enter your master password to unlock it.'
          )}
        </p>
        {offline && (
          <p role="status" className="text-sm text-amber-200">
            Offline: Lockit cannot reach your server
            {offline.savedAt !== null && (
              <>
                . Your master password{offline.passkey ? ' or your passkey' : ''} opens the copy of your vault saved on this
                device on {servedAtText(offline.savedAt)}
              </>
            )}
            . Changes you make wait on this device until your server answers again.
          </p>
        )}
        {passkeyReason && <p className="text-sm text-amber-200">{CANNOT_UNLOCK_TEXT[passkeyReason]}</p>}
        <PasswordInput
          label="Master Password"
          name="master-password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
        {lastTried === 'password' && mutation.isError && (
          <p role="alert" className="text-sm text-red-300">
            {messageFor(mutation.error)}
          </p>
        )}
        <button type="submit" className={buttonPrimary} disabled={mutation.isPending || passkeyPending || !secure}>
          Unlock
        </button>
        {(offline ? offline.passkey : passkeyOffered) && (
          <PasskeyUnlockButton
            offline={offline !== undefined}
            username={username}
            disabled={mutation.isPending || !secure}
            showOutcome={lastTried === 'passkey'}
            onStart={() => setLastTried('passkey')}
            onPendingChange={setPasskeyPending}
            onUnlocked={(vault, entries) => {
              setPassword('');
              onUnlocked(vault, entries);
            }}
          />
        )}
        <p aria-live="polite" className="min-h-5 text-center text-sm text-slate-400">
          {mutation.isPending ? 'Unlocking your vault…' : passkeyPending ? 'Waiting for your passkey…' : ''}
        </p>
      </form>
    </div>
  );
}
