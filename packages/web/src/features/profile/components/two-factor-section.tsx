import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { buttonPrimary, buttonSecondary, card } from '@/components/ui/styles';
import { serverMessageOf } from '@/lib/api-errors';
import { disableTotp } from '../api/disable-totp';
import { forgetBrowsers } from '../api/forget-browsers';
import { makeRecoveryCodes } from '../api/make-recovery-codes';
import { setupTotp, type TotpSetup } from '../api/setup-totp';
import { twoFactorQueryKey, useTwoFactorStatus } from '../api/two-factor-status';
import { MasterPasswordDialog } from './master-password-dialog';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import { TotpSetupDialog } from './totp-setup-dialog';

/** At or below this many recovery codes left, the section says to make new ones. */
const FEW_RECOVERY_CODES = 3;

type Step =
  | { kind: 'password'; purpose: 'setup' | 'disable' | 'codes' }
  | { kind: 'enrol'; setup: TotpSetup }
  | { kind: 'codes'; codes: string[] };

type Outcome = { ok: boolean; text: string };

/**
 * "Two-step sign-in": the authenticator app (set up, turn off), recovery codes
 * (how many are left, make new ones, shown once), and forgetting remembered browsers. The
 * second step guards the session only; the vault's encryption stays the master password's.
 * Security keys and passkeys have their own section.
 */
export function TwoFactorSection({ username }: { username: string }) {
  const status = useTwoFactorStatus();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: twoFactorQueryKey });

  const forget = useMutation({
    mutationFn: forgetBrowsers,
    onSuccess: () => setOutcome({ ok: true, text: 'Every remembered browser will ask for the second step again.' }),
    onError: (error) => setOutcome({ ok: false, text: serverMessageOf(error) ?? 'Remembered browsers could not be forgotten.' }),
  });

  const open = (purpose: 'setup' | 'disable' | 'codes') => {
    setOutcome(null);
    setStep({ kind: 'password', purpose });
  };
  const close = () => setStep(null);

  const data = status.data;
  const hasFactor = data !== undefined && (data.totp || data.credentials.length > 0);

  return (
    <section aria-labelledby="two-factor-title" className={card}>
      <h2 id="two-factor-title" className="mb-2 text-xl font-semibold text-white">
        Two-step sign-in
      </h2>
      <p className="mb-4 text-sm text-slate-400">
        After your master password, Lockit asks for a second step from something you have. It protects your account if your
        password is known to someone else; your vault stays encrypted with your master password alone.
      </p>
      {status.isPending && <p className="text-sm text-slate-400">Loading two-step sign-in…</p>}
      {status.isError && <p className="text-sm text-rose-300">Two-step sign-in could not be loaded. Reload to try again.</p>}
      {data && (
        <div className="flex flex-col gap-4">
          <p className="text-slate-200">
            Authenticator app: <strong className="text-white">{data.totp ? 'On' : 'Off'}</strong>
          </p>
          {hasFactor && (
            <p className={data.recoveryCodesLeft <= FEW_RECOVERY_CODES ? 'text-amber-200' : 'text-slate-200'}>
              Recovery codes left: <strong>{data.recoveryCodesLeft}</strong>
              {data.recoveryCodesLeft <= FEW_RECOVERY_CODES && ' — make new ones before you run out.'}
            </p>
          )}
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            {data.totp ? (
              <button type="button" className={buttonSecondary} onClick={() => open('disable')}>
                Turn off the authenticator app
              </button>
            ) : (
              <button type="button" className={buttonPrimary} onClick={() => open('setup')}>
                Set up an authenticator app
              </button>
            )}
            {hasFactor && (
              <button type="button" className={buttonSecondary} onClick={() => open('codes')}>
                Make new recovery codes
              </button>
            )}
            {hasFactor && data.rememberBrowserDays > 0 && (
              <button
                type="button"
                className={buttonSecondary}
                disabled={forget.isPending}
                onClick={() => {
                  setOutcome(null);
                  forget.mutate();
                }}
              >
                Forget remembered browsers
              </button>
            )}
          </div>
        </div>
      )}
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={`mt-3 text-sm ${outcome.ok ? 'text-emerald-300' : 'text-rose-300'}`}>
          {outcome.text}
        </p>
      )}
      {step?.kind === 'password' && step.purpose === 'setup' && (
        <MasterPasswordDialog
          title="Set up an authenticator app"
          description="Enter your master password to start."
          confirmLabel="Continue"
          username={username}
          action={setupTotp}
          onDone={(setup) => setStep({ kind: 'enrol', setup })}
          onClose={close}
        />
      )}
      {step?.kind === 'password' && step.purpose === 'disable' && (
        <MasterPasswordDialog
          title="Turn off the authenticator app?"
          description="Sign-in will no longer ask for a code from your app. Enter your master password to turn it off."
          confirmLabel="Turn off"
          username={username}
          action={disableTotp}
          onDone={() => {
            close();
            refresh();
            setOutcome({ ok: true, text: 'The authenticator app is off.' });
          }}
          onClose={close}
        />
      )}
      {step?.kind === 'password' && step.purpose === 'codes' && (
        <MasterPasswordDialog
          title="Make new recovery codes?"
          description="Your current recovery codes will stop working. Enter your master password to make 10 new ones."
          confirmLabel="Make new codes"
          username={username}
          action={makeRecoveryCodes}
          onDone={(codes) => {
            refresh();
            setStep({ kind: 'codes', codes });
          }}
          onClose={close}
        />
      )}
      {step?.kind === 'enrol' && (
        <TotpSetupDialog
          setup={step.setup}
          onConfirmed={(codes) => {
            refresh();
            setOutcome({ ok: true, text: 'Two-step sign-in with your authenticator app is on.' });
            setStep(codes ? { kind: 'codes', codes } : null);
          }}
          onClose={close}
        />
      )}
      {step?.kind === 'codes' && <RecoveryCodesDialog codes={step.codes} onClose={close} />}
    </section>
  );
}
