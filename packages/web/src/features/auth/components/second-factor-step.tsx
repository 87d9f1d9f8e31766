import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { usePublicConfig } from '@/api/get-public-config';
import { buttonPrimary, buttonSecondary, card } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { VaultUnlockError } from '@lockit/client-core';
import { ApiError, NetworkError } from '@/lib/api-errors';
import {
  SecondFactorExpiredError,
  SecondFactorInputError,
  SecurityKeyError,
  securityKeyCeremony,
  type PendingSecondFactor,
  type SecondFactorSignInResult,
} from '../lib/second-factor-sign-in';
import { NO_RESPONSE_MESSAGE, OFFLINE_MESSAGE } from '../lib/sign-in-messages';

/** At or below this many recovery codes left, the person is told to make new ones. */
export const FEW_RECOVERY_CODES = 3;

type Attempt = { method: 'totp' | 'recovery'; code: string } | { method: 'webauthn' };

interface SecondFactorStepProps {
  pending: PendingSecondFactor;
  /** The factor was accepted and the vault key unwrapped. */
  onSignedIn: (result: SecondFactorSignInResult) => void;
  /**
   * Back to the password form; with a message when the pending sign-in ended (expired, too many
   * tries). Keep it stable (useCallback): the expiry timer restarts when it changes.
   */
  onCancel: (message?: string) => void;
  /** The session is open but the server's key data did not verify: the page ends it. */
  onUnlockFailed: (error: VaultUnlockError) => void;
}

/**
 * "Two-step sign-in": the second step of a sign-in whose password was right, for an account
 * with a second factor. Offers the methods the server listed, in its order: an authenticator
 * app code, a security key, a recovery code; and "Remember this browser" when the operator
 * allows it. Errors are said in the step; an expired sign-in goes back to the password form.
 */
export function SecondFactorStep({ pending, onSignedIn, onCancel, onUnlockFailed }: SecondFactorStepProps) {
  const offers = (method: 'totp' | 'webauthn' | 'recovery') => pending.methods.includes(method);
  const [codeMethod, setCodeMethod] = useState<'totp' | 'recovery' | null>(
    offers('totp') ? 'totp' : offers('webauthn') ? null : 'recovery',
  );
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [recovered, setRecovered] = useState<SecondFactorSignInResult | null>(null);
  const rememberDays = usePublicConfig().data?.rememberBrowserDays ?? 0;
  const rememberId = useId();

  // The server refuses the token after its expiry anyway; going back at that moment says why.
  useEffect(() => {
    if (recovered) return;
    const timer = setTimeout(
      () => {
        pending.discard();
        onCancel(new SecondFactorExpiredError().message);
      },
      Math.max(0, pending.expiresAt.getTime() - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [pending, recovered, onCancel]);

  const mutation = useMutation({
    gcTime: 0,
    networkMode: 'always',
    mutationFn: (attempt: Attempt) =>
      attempt.method === 'webauthn'
        ? pending.withSecurityKey(remember && rememberDays > 0, securityKeyCeremony)
        : pending.withCode(attempt.method, attempt.code, remember && rememberDays > 0),
    onSuccess: (result) => {
      setCode('');
      if (result.recoveryCodesLeft === undefined) onSignedIn(result);
      else setRecovered(result);
    },
    onError: (failure) => {
      if (failure instanceof SecondFactorExpiredError) return onCancel(failure.message);
      if (failure instanceof VaultUnlockError) return onUnlockFailed(failure);
      setError(messageOf(failure));
    },
  });

  const switchTo = (method: 'totp' | 'recovery') => {
    setCodeMethod(method);
    setCode('');
    setError(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!codeMethod || mutation.isPending) return;
    setError(null);
    mutation.mutate({ method: codeMethod, code });
  };

  if (recovered) return <RecoveryCodeUsed result={recovered} onContinue={() => onSignedIn(recovered)} />;

  return (
    <div className={card}>
      <h1 className="mb-2 text-center text-3xl font-bold text-white">Two-step sign-in</h1>
      <p className="mb-6 text-center text-sm text-slate-300">Your password was right. Confirm it is you with your second step.</p>
      {codeMethod && (
        <form method="dialog" onSubmit={onSubmit} className="flex flex-col gap-4">
          {codeMethod === 'totp' ? (
            <TextInput
              key="totp"
              label="Authenticator app code"
              name="one-time-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              required
            />
          ) : (
            <TextInput
              key="recovery"
              label="Recovery code"
              name="recovery-code"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={64}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              required
            />
          )}
          <button type="submit" className={buttonPrimary} disabled={mutation.isPending}>
            Verify
          </button>
        </form>
      )}
      {rememberDays > 0 && (
        <div className="mt-4 flex items-center gap-2">
          <input
            id={rememberId}
            type="checkbox"
            checked={remember}
            onChange={(event) => setRemember(event.target.checked)}
            className="h-4 w-4 accent-cyan-500"
          />
          <label htmlFor={rememberId} className="text-sm text-slate-300">
            Remember this browser for {rememberDays} {rememberDays === 1 ? 'day' : 'days'}
          </label>
        </div>
      )}
      {error && (
        <p role="alert" className="mt-4 text-center text-sm text-rose-300">
          {error}
        </p>
      )}
      <p aria-live="polite" className="mt-2 min-h-5 text-center text-sm text-slate-400">
        {mutation.isPending ? 'Checking…' : ''}
      </p>
      <div className="mt-2 flex flex-col gap-3">
        {offers('webauthn') && (
          <button
            type="button"
            className={codeMethod ? buttonSecondary : buttonPrimary}
            disabled={mutation.isPending}
            onClick={() => {
              setError(null);
              mutation.mutate({ method: 'webauthn' });
            }}
          >
            Use your security key
          </button>
        )}
        {offers('totp') && codeMethod !== 'totp' && (
          <button type="button" className={buttonSecondary} onClick={() => switchTo('totp')}>
            Use your authenticator app
          </button>
        )}
        {offers('recovery') && codeMethod !== 'recovery' && (
          <button type="button" className={buttonSecondary} onClick={() => switchTo('recovery')}>
            Use a recovery code
          </button>
        )}
        <button
          type="button"
          className="text-sm font-medium text-cyan-300 underline"
          onClick={() => {
            pending.discard();
            onCancel();
          }}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}

/** After a recovery code: how many are left, with a warning when few remain, before the vault opens. */
function RecoveryCodeUsed({ result, onContinue }: { result: SecondFactorSignInResult; onContinue: () => void }) {
  const left = result.recoveryCodesLeft ?? 0;
  const few = left <= FEW_RECOVERY_CODES;
  return (
    <div className={card}>
      <h1 className="mb-4 text-center text-3xl font-bold text-white">Two-step sign-in</h1>
      <p role={few ? 'alert' : 'status'} className={`mb-6 text-center ${few ? 'text-amber-200' : 'text-slate-200'}`}>
        Recovery code accepted. You have {left} recovery {left === 1 ? 'code' : 'codes'} left.
        {few && ' Make new ones in Profile, under Two-step sign-in, before you run out.'}
      </p>
      <button type="button" className={`${buttonPrimary} w-full`} onClick={onContinue}>
        Continue
      </button>
    </div>
  );
}

function messageOf(failure: unknown): string {
  if (failure instanceof ApiError && failure.serverMessage) return failure.serverMessage;
  if (failure instanceof NetworkError && failure.offline) return OFFLINE_MESSAGE;
  if (failure instanceof ApiError || failure instanceof NetworkError) return NO_RESPONSE_MESSAGE;
  if (failure instanceof SecondFactorInputError || failure instanceof SecurityKeyError) return failure.message;
  return NO_RESPONSE_MESSAGE;
}
