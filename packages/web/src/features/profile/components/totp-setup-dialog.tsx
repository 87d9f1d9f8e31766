import { totpCodeSchema } from '@lockit/contract';
import { useMutation } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { TextInput } from '@/components/ui/text-input';
import { serverMessageOf } from '@/lib/api-errors';
import { copyWithClear } from '@/lib/clipboard';
import { confirmTotp } from '../api/confirm-totp';
import type { TotpSetup } from '../api/setup-totp';
import { DialogAlert, DialogButtons } from './dialog-parts';

/** The secret as people type it: groups of 4. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** An SVG QR code of the otpauth URI as a data URL (the CSP allows data: images), made in this tab. */
async function qrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

interface TotpSetupDialogProps {
  setup: TotpSetup;
  /** TOTP is on; `recoveryCodes` when the server made the account's first codes. */
  onConfirmed: (recoveryCodes: string[] | undefined) => void;
  onClose: () => void;
}

/** Enrolment: scan the QR code (or type the secret), then prove it with a code before TOTP is on. */
export function TotpSetupDialog({ setup, onConfirmed, onClose }: TotpSetupDialogProps) {
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let live = true;
    qrDataUrl(setup.uri).then(
      (url) => live && setQr(url),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [setup.uri]);

  const mutation = useMutation({
    mutationFn: confirmTotp,
    onSuccess: onConfirmed,
    onError: (failure) => setError(failureText(failure)),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = totpCodeSchema.safeParse(code);
    if (!parsed.success) return setError('Enter the 6-digit code your authenticator app shows.');
    setError(null);
    mutation.mutate(parsed.data);
  };

  return (
    <Dialog title="Set up an authenticator app" onClose={onClose}>
      <ol className="mb-4 flex list-decimal flex-col gap-2 pl-5 text-sm text-slate-300">
        <li>Scan this QR code with your authenticator app, or type the key below into it.</li>
        <li>Enter the 6-digit code the app shows to turn two-step sign-in on.</li>
      </ol>
      <div className="mb-4 flex justify-center">
        {qr ? (
          <img src={qr} alt="QR code to scan with your authenticator app" className="h-48 w-48 rounded bg-white p-2" />
        ) : (
          <p className="text-sm text-slate-400">Making the QR code…</p>
        )}
      </div>
      <div className="mb-4 flex flex-col items-center gap-2 sm:flex-row sm:justify-center">
        <code aria-label="Setup key" className="font-mono text-sm tracking-wider break-all text-white">
          {groupSecret(setup.secret)}
        </code>
        <button
          type="button"
          className="rounded border border-slate-600 px-3 py-1 text-sm text-slate-200 hover:bg-slate-800"
          onClick={() =>
            void copyWithClear(setup.secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy key'}
        </button>
      </div>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextInput
          label="Code from the app"
          name="one-time-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          required
        />
        <DialogAlert message={error} />
        <DialogButtons busy={mutation.isPending} submit="Turn on" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function failureText(failure: unknown): string {
  return serverMessageOf(failure) ?? 'The code could not be checked. Please try again.';
}
