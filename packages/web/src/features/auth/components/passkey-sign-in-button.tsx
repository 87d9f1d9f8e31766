import { KdfParamsRejectedError } from '@lockit/crypto';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { listEntries } from '@/api/list-entries';
import { refreshSignedIn } from '@/api/session-cache';
import { buttonSecondary } from '@/components/ui/styles';
import { useToast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { ApiError, NetworkError } from '@/lib/api-errors';
import { useKeyring } from '@/lib/keyring-context';
import { useAppRunning } from '@/lib/use-app-running';
import { PasskeyCeremonyError } from '@/lib/passkey/prf-ceremonies';
import { PasskeyUnlockError, signInWithPasskey, type PasskeySignedInState } from '@/lib/passkey/passkey-sign-in';
import { useEndUntrustedSession } from '../hooks/use-end-untrusted-session';
import { NO_RESPONSE_MESSAGE, OFFLINE_MESSAGE, SECURITY_TOAST_MS, SIGN_IN_TOAST_MS } from '../lib/sign-in-messages';

/**
 * "Sign in with a passkey": a discoverable passkey is both factors. With its PRF unlock key it
 * opens the vault too; without one the session is open and the vault's Unlock screen asks the
 * master password, saying why. Key data that fails verification ends the session, unlocks nothing.
 */
export function PasskeySignInButton({ disabled }: { disabled?: boolean }) {
  const toast = useToast();
  const navigate = useNavigate();
  const keyring = useKeyring();
  const queryClient = useQueryClient();
  // A prerendered page shows the button before the app runs: a click then would be lost.
  const running = useAppRunning();

  const endUntrustedSession = useEndUntrustedSession('failed passkey unlock');

  const mutation = useMutation({
    networkMode: 'always',
    mutationFn: signInWithPasskey,
    onSuccess: (result) => {
      void refreshSignedIn(queryClient);
      toast({ kind: 'success', message: result.message, durationMs: SIGN_IN_TOAST_MS });
      if (result.kind === 'unlocked') {
        keyring.unlock(result.vault);
        keyring.holdPrefetchedList(result.vault.vaultKey, listEntries());
        navigate(paths.home);
        return;
      }
      const state: PasskeySignedInState = { passkeyCannotUnlock: result.reason };
      navigate(paths.vault, { state });
    },
    onError: (error) => {
      if (error instanceof PasskeyUnlockError || error instanceof KdfParamsRejectedError) {
        toast({ kind: 'error', message: error.message, durationMs: SECURITY_TOAST_MS });
        endUntrustedSession();
        return;
      }
      const message =
        error instanceof PasskeyCeremonyError
          ? error.message
          : error instanceof ApiError && error.serverMessage
            ? error.serverMessage
            : error instanceof NetworkError && error.offline
              ? OFFLINE_MESSAGE
              : NO_RESPONSE_MESSAGE;
      toast({ kind: 'error', message, durationMs: SIGN_IN_TOAST_MS });
    },
  });

  return (
    <button
      type="button"
      className={`${buttonSecondary} w-full`}
      disabled={disabled === true || !running || mutation.isPending}
      onClick={() => mutation.mutate()}
    >
      {mutation.isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
    </button>
  );
}
