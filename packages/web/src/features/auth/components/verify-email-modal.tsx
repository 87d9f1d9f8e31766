import { VERIFICATION_CODE_LENGTH } from '@lockit/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { useToast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-errors';
import { useSendCode } from '../api/send-code';
import { useVerifyCode } from '../api/verify-code';

/** Sign-up's toasts (success and error) stay 3 s; the redirect after verification waits 2 s. */
export const VERIFY_TOAST_MS = 3000;
export const VERIFIED_REDIRECT_MS = 2000;

export interface PendingVerification {
  email: string;
  username: string;
}

interface Props extends PendingVerification {
  onClose: () => void;
}

/** "Verify Your Email": enter the mailed 6-character code, or have it sent again. */
export function VerifyEmailModal({ email, username, onClose }: Props) {
  const [code, setCode] = useState('');
  const [verified, setVerified] = useState(false);
  const toast = useToast();
  const navigate = useNavigate();
  const verify = useVerifyCode();
  const resend = useSendCode();

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
        onSuccess: (message) => toast({ kind: 'success', message, durationMs: VERIFY_TOAST_MS }),
        onError: () => toast({ kind: 'error', message: '❌ Failed to resend code.', durationMs: VERIFY_TOAST_MS }),
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
          <button type="button" className={buttonSecondary} onClick={onResend} disabled={busy}>
            Resend Code
          </button>
          <button type="button" className={buttonSecondary} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
