import { VERIFICATION_CODE_LENGTH } from '@lockit/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { useToast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-errors';
import { useMailDelivery } from '../api/mail-delivery';
import { useWaitCountdown } from '../hooks/use-wait-countdown';
import { useSendCode } from '../api/send-code';
import { useVerifyCode } from '../api/verify-code';

/** Sign-up's toasts (success and error) stay 3 s; the redirect after verification waits 2 s. */
export const VERIFY_TOAST_MS = 3000;
export const VERIFIED_REDIRECT_MS = 2000;

/** Shown while the delivery ticket of the last send says the mail could not be sent. */
export const MAIL_FAILED_TEXT = 'We could not send the e-mail with your code. Check the address, or resend the code in a moment.';

export interface PendingVerification {
  email: string;
  username: string;
  /** The send-code answer's delivery ticket, when there is one (decision 0043). */
  delivery?: string | undefined;
}

interface Props extends PendingVerification {
  onClose: () => void;
}

/** "Verify Your Email": enter the mailed 6-character code, or have it sent again. */
export function VerifyEmailModal({ email, username, delivery, onClose }: Props) {
  const [code, setCode] = useState('');
  // The ticket of the latest send: a resend replaces it, so an old failure stops showing.
  const [ticket, setTicket] = useState(delivery);
  const mailFailed = useMailDelivery(ticket).data === 'failed';
  const [verified, setVerified] = useState(false);
  const toast = useToast();
  const navigate = useNavigate();
  const verify = useVerifyCode();
  const resend = useSendCode();
  const resendWait = useWaitCountdown();

  useEffect(() => {
    if (!verified) return;
    const timer = setTimeout(() => {
      onClose();
      navigate(paths.signIn);
    }, VERIFIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [verified, onClose, navigate]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(
      { email, username, code },
      {
        onSuccess: () => {
          toast({ kind: 'success', message: 'Email verified!', durationMs: VERIFY_TOAST_MS });
          setVerified(true);
        },
        onError: (error) => {
          const message = error instanceof ApiError ? '❌ Invalid code. Try again.' : '❌ Verification failed';
          toast({ kind: 'error', message, durationMs: VERIFY_TOAST_MS });
        },
      },
    );
  };

  const onResend = () => {
    resend.mutate(
      { email, username },
      {
        onSuccess: (sent) => {
          setTicket(sent.delivery);
          toast({ kind: 'success', message: sent.message, durationMs: VERIFY_TOAST_MS });
        },
        onError: (error) => {
          toast({ kind: 'error', message: '❌ Failed to resend code.', durationMs: VERIFY_TOAST_MS });
          // The spec's text stays; the button says how long the server asked to wait.
          if (error instanceof ApiError && error.retryAfterSeconds !== undefined) resendWait.start(error.retryAfterSeconds);
        },
      },
    );
  };

  const busy = verify.isPending || resend.isPending || verified;
  return (
    <Dialog title="Verify Your Email" onClose={onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <p className="text-sm text-slate-300">
          We sent a {VERIFICATION_CODE_LENGTH}-character code to <strong className="text-white">{email}</strong>. Enter it below
          to verify your account.
        </p>
        {mailFailed && (
          <p role="alert" className="rounded border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-200">
            {MAIL_FAILED_TEXT}
          </p>
        )}
        <TextInput
          label="Verification Code"
          name="code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          maxLength={VERIFICATION_CODE_LENGTH}
          autoComplete="one-time-code"
          spellCheck={false}
          required
        />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className={buttonPrimary} disabled={busy}>
            Verify Code
          </button>
          <button type="button" className={buttonSecondary} onClick={onResend} disabled={busy || resendWait.secondsLeft > 0}>
            {resendWait.secondsLeft > 0 ? `Resend Code (wait ${resendWait.secondsLeft} s)` : 'Resend Code'}
          </button>
          <button type="button" className={buttonSecondary} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
