import { KdfParamsRejectedError } from '@lockit/crypto';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { listEntries } from '@/api/list-entries';
import { refreshSignedIn } from '@/api/session-cache';
import { PasswordInput } from '@/components/ui/password-input';
import { SecureContextNotice, useSecureContext } from '@/components/ui/secure-context-notice';
import { useAppRunning } from '@/lib/use-app-running';
import { buttonPrimary, card } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { useToast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { NO_SIGN_UP_TEXT, useSignupMode } from '@/config/signup-mode';
import { ApiError, NetworkError } from '@/lib/api-errors';
import { KeyDerivationError } from '@/lib/derive-keys';
import { useKeyring } from '@/lib/keyring-context';
import { unverifiedAccountOf } from '../api/login';
import { useEndUntrustedSession } from '../hooks/use-end-untrusted-session';
import type { PendingSecondFactor } from '../lib/second-factor-sign-in';
import { signIn, VaultUnlockError, type SignInResult } from '../lib/sign-in';
import { SecondFactorStep } from './second-factor-step';
import { VerifyEmailModal, type PendingVerification } from './verify-email-modal';
import { NO_RESPONSE_MESSAGE, OFFLINE_MESSAGE, SECURITY_TOAST_MS, SIGN_IN_TOAST_MS } from '../lib/sign-in-messages';
import { PasskeySignInButton } from './passkey-sign-in-button';

// Kept exported from here too: tests and other screens import them from the page.
export { NO_RESPONSE_MESSAGE, OFFLINE_MESSAGE, SECURITY_TOAST_MS, SIGN_IN_TOAST_MS };

export function SignInPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<PendingVerification | null>(null);
  const [secondStep, setSecondStep] = useState<PendingSecondFactor | null>(null);
  const toast = useToast();
  const navigate = useNavigate();
  const keyring = useKeyring();
  const queryClient = useQueryClient();

  /** Login succeeded but the key data did not verify: lock everything and end that session. */
  const endUntrustedSession = useEndUntrustedSession('failed unlock');

  const finishSignIn = (result: SignInResult) => {
    setSecondStep(null);
    keyring.unlock(result.vault);
    keyring.holdPrefetchedList(result.vault.vaultKey, listEntries());
    void refreshSignedIn(queryClient);
    toast({ kind: 'success', message: result.message, durationMs: SIGN_IN_TOAST_MS });
    navigate(paths.home);
  };

  const refuseUnlock = (error: KdfParamsRejectedError | VaultUnlockError) => {
    setSecondStep(null);
    toast({ kind: 'error', message: error.message, durationMs: SECURITY_TOAST_MS });
    if (error instanceof VaultUnlockError) endUntrustedSession();
  };

  /** Back to the password form from the second step, saying why when it ended on its own. */
  const leaveSecondStep = useCallback(
    (message?: string) => {
      setSecondStep(null);
      if (message) toast({ kind: 'error', message, durationMs: SECURITY_TOAST_MS });
    },
    [toast],
  );

  const secure = useSecureContext();
  // The prerendered page's button, before the app runs, would submit the form natively.
  const running = useAppRunning();
  const mutation = useMutation({
    // The variables hold the master password: let the mutation cache drop them at once.
    gcTime: 0,
    // Sent even offline, to fail at once: React Query would otherwise pause it until the network
    // returns, with no word said, and keep the master password waiting in memory meanwhile.
    networkMode: 'always',
    mutationFn: (credentials: { username: string; password: string }) => signIn(credentials.username, credentials.password),
    onSuccess: (result) => {
      setPassword('');
      if ('secondFactor' in result) setSecondStep(result.secondFactor);
      else finishSignIn(result);
    },
    onError: (error) => {
      if (error instanceof KdfParamsRejectedError || error instanceof VaultUnlockError) {
        refuseUnlock(error);
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

  if (secondStep) {
    return (
      <section className="mx-auto max-w-md px-4 py-16">
        <SecondFactorStep
          pending={secondStep}
          onSignedIn={finishSignIn}
          onCancel={leaveSecondStep}
          onUnlockFailed={refuseUnlock}
        />
      </section>
    );
  }

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
          <button type="submit" className={buttonPrimary} disabled={mutation.isPending || !secure || !running}>
            Sign In
          </button>
          <p aria-live="polite" className="min-h-5 text-center text-sm text-slate-400">
            {mutation.isPending ? 'Unlocking your vault…' : ''}
          </p>
        </form>
        <div className="mt-4">
          <PasskeySignInButton disabled={!secure || mutation.isPending} />
        </div>
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
