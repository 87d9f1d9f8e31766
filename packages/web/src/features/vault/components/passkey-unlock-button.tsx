import {
  NoOfflineCopyError,
  NoOfflinePasskeyError,
  OfflineCopyDamagedError,
  UnknownSessionAccountError,
} from '@lockit/client-core';
import { KdfParamsRejectedError } from '@lockit/crypto';
import { useMutation } from '@tanstack/react-query';
import { listEntries } from '@/api/list-entries';
import { buttonSecondary } from '@/components/ui/styles';
import type { UnlockedVault } from '@/lib/keyring';
import { logFailure } from '@/lib/log';
import { PasskeyUnlockError } from '@/lib/passkey/passkey-sign-in';
import { PasskeyNoPrfError, unlockWithPasskey } from '@/lib/passkey/passkey-unlock';
import { PasskeyCeremonyError } from '@/lib/passkey/prf-ceremonies';
import { unlockOfflineWithPasskey } from '@/lib/offline/unlock-offline';
import { prewarmCryptoWorkers } from '../lib/crypto-worker-pool';

const NOT_VERIFIED = 'Lockit could not unlock your vault with this passkey. Try again or enter your master password.';

/** Lockit's own sentences are shown as they are; the server's refusals get ours (it may be hostile). */
function isOwnRefusal(error: unknown): error is Error {
  return (
    error instanceof PasskeyCeremonyError ||
    error instanceof PasskeyNoPrfError ||
    error instanceof PasskeyUnlockError ||
    error instanceof KdfParamsRejectedError ||
    error instanceof NoOfflinePasskeyError ||
    error instanceof NoOfflineCopyError ||
    error instanceof OfflineCopyDamagedError ||
    error instanceof UnknownSessionAccountError
  );
}

interface PasskeyUnlockButtonProps {
  username: string | undefined;
  /** While the password unlock runs, or outside a secure context. */
  disabled: boolean;
  /** Whether this button's outcome is the one to show (the last way the person tried). */
  showOutcome: boolean;
  onStart: () => void;
  onPendingChange: (pending: boolean) => void;
  onUnlocked: (vault: UnlockedVault, entries: Promise<unknown[]>) => void;
  /** The server is unreachable: the passkey opens this device's offline copy instead. */
  offline?: boolean;
}

/**
 * "Unlock with a passkey" on the Unlock screen (lib/passkey/passkey-unlock.ts). A cancelled
 * prompt, a passkey without PRF or key data that fails verification is said in plain words and
 * leaves the master password field as it was; nothing is unlocked.
 */
export function PasskeyUnlockButton({
  username,
  disabled,
  showOutcome,
  onStart,
  onPendingChange,
  onUnlocked,
  offline = false,
}: PasskeyUnlockButtonProps) {
  const mutation = useMutation({
    gcTime: 0,
    mutationFn: async () => {
      if (offline) {
        const opened = await unlockOfflineWithPasskey();
        prewarmCryptoWorkers();
        return { vault: opened.vault, entries: Promise.resolve(opened.entries) };
      }
      const vault = await unlockWithPasskey(username ?? '');
      prewarmCryptoWorkers();
      const entries = listEntries();
      // Awaited by the vault once unlocked; a failure then is its to log.
      entries.catch(() => {});
      return { vault, entries };
    },
    onMutate: () => onPendingChange(true),
    onSettled: () => onPendingChange(false),
    onSuccess: ({ vault, entries }) => onUnlocked(vault, entries),
    onError: (error) => {
      if (!isOwnRefusal(error)) logFailure('Unlocking the vault with a passkey', error);
    },
  });

  return (
    <>
      <button
        type="button"
        className={buttonSecondary}
        disabled={disabled || mutation.isPending}
        onClick={() => {
          onStart();
          mutation.mutate();
        }}
      >
        Unlock with a passkey
      </button>
      {showOutcome && mutation.isError && (
        <p role="alert" className="text-sm text-red-300">
          {isOwnRefusal(mutation.error) ? mutation.error.message : NOT_VERIFIED}
        </p>
      )}
    </>
  );
}
