import { KdfParamsRejectedError } from '@lockit/crypto';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { listEntries } from '@/api/list-entries';
import { logout } from '@/api/logout';
import { markSignedOut, refreshSignedIn } from '@/api/session-cache';
import { PasswordInput } from '@/components/ui/password-input';
import { SecureContextNotice, useSecureContext } from '@/components/ui/secure-context-notice';
import { buttonPrimary, card } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { useToast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { NO_SIGN_UP_TEXT, useSignupMode } from '@/config/signup-mode';
import { ApiError, NetworkError } from '@/lib/api-errors';
import { KeyDerivationError } from '@/lib/derive-keys';
import { useKeyring } from '@/lib/keyring-context';
import { logFailure, logInfo } from '@/lib/log';
import { unverifiedAccountOf } from '../api/login';
import { signIn, VaultUnlockError } from '../lib/sign-in';
import { VerifyEmailModal, type PendingVerification } from './verify-email-modal';

/** Sign-in toasts stay 2 s (spec); Lockit's own security refusals stay longer to be read. */
export const SIGN_IN_TOAST_MS = 2000;
export const SECURITY_TOAST_MS = 8000;
export const NO_RESPONSE_MESSAGE = 'Something went wrong. Please try again later.';
/** Like the no-response message, for a browser that says it has no network at all. */
export const OFFLINE_MESSAGE = 'You are offline. Please sign in again when your network is back.';

export function SignInPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<PendingVerification | null>(null);
  const toast = useToast();
  const navigate = useNavigate();
  const keyring = useKeyring();
  const queryClient = useQueryClient();

  /** Login succeeded but the key data did not verify: lock everything and end that session. */
  const endUntrustedSession = () => {
    keyring.clear();
    logout().then(
      (message) => {
        logInfo('Logout after failed unlock', message);
        markSignedOut(queryClient);
      },
      (error: unknown) => logFailure('Logout after failed unlock', error),
    );
  };

  const secure = useSecureContext();
  const mutation = useMutation({
    // The variables hold the master password: let the mutation cache drop them at once.
    gcTime: 0,
    // Sent even offline, to fail at once: React Query would otherwise pause it until the network
    // returns, with no word said, and keep the master password waiting in memory meanwhile.
    networkMode: 'always',
    mutationFn: (credentials: { username: string; password: string }) => signIn(credentials.username, credentials.password),
    onSuccess: (result) => {
      keyring.unlock(result.vault);
      keyring.holdPrefetchedList(result.vault.vaultKey, listEntries());
      setPassword('');
      void refreshSignedIn(queryClient);
      toast({ kind: 'success', message: result.message, durationMs: SIGN_IN_TOAST_MS });
      navigate(paths.home);
    },
    onError: (error) => {
      if (error instanceof KdfParamsRejectedError || error instanceof VaultUnlockError) {
        toast({ kind: 'error', message: error.message, durationMs: SECURITY_TOAST_MS });
        if (error instanceof VaultUnlockError) endUntrustedSession();
        return;
      }
      const unverified = unverifiedAccountOf(error);
      if (unverified) setPending(unverified);
      const message =
        error instanceof ApiError && error.serverMessage
          ? error.serverMessage
          : error instanceof KeyDerivationError
            ? error.message
            : error instanceof NetworkError && error.offline
              ? OFFLINE_MESSAGE
              : NO_RESPONSE_MESSAGE;
      toast({ kind: 'error', message, durationMs: SIGN_IN_TOAST_MS });
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate({ username, password });
  };

  const closeModal = useCallback(() => setPending(null), []);

  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <SecureContextNotice />
      <div className={card}>
        <h1 className="mb-6 text-center text-3xl font-bold text-white">Sign In</h1>
        {/* `dialog`: the browser itself never submits it. Before the app runs (a prerendered page) a
            native submit would send the fields, the master password with them, in the URL. */}
        <form method="dialog" onSubmit={onSubmit} className="flex flex-col gap-4">
          <TextInput
            label="Username"
            name="username"
            autoComplete="username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            required
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
          <button type="submit" className={buttonPrimary} disabled={mutation.isPending || !secure}>
            Sign In
          </button>
          <p aria-live="polite" className="min-h-5 text-center text-sm text-slate-400">
            {mutation.isPending ? 'Unlocking your vault…' : ''}
          </p>
        </form>
        <NoAccountYet />
      </div>
      {pending && <VerifyEmailModal email={pending.email} username={pending.username} onClose={closeModal} />}
    </section>
  );
}

/** Where a visitor without an account goes: the sign-up form only where anyone may sign up (decision 0044). */
function NoAccountYet() {
  const mode = useSignupMode();
  if (mode === 'open') {
    return (
      <p className="mt-2 text-center text-sm text-slate-400">
        Don&apos;t have an account?{' '}
        <Link to={paths.signUp} className="font-medium text-cyan-300 underline">
          Sign up here
        </Link>
      </p>
    );
  }
  if (mode === undefined) return null;
  return <p className="mt-2 text-center text-sm text-slate-400">{NO_SIGN_UP_TEXT[mode]}</p>;
}
