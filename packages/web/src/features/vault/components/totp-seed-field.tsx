import { DOCUMENT_LIMITS } from '@lockit/contract';
import { useId, useRef, useState, type ClipboardEvent } from 'react';
import { buttonSecondary } from '@/components/ui/styles';
import { parseTotpSeed, TotpSeedError } from '../lib/totp';

interface TotpSeedFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The form's own message for this field (e.g. on submit), shown like a validation error. */
  error?: string;
}

/**
 * The TOTP seed: a pasted base32 secret or otpauth:// address, or one read from a QR code
 * image (a file, or an image pasted from the clipboard into the field). Checked with
 * parseTotpSeed when the field is left, so a seed that would show wrong codes is named at
 * once; the form checks it again before saving.
 */
export function TotpSeedField({ value, onChange, error }: TotpSeedFieldProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [ownError, setOwnError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const shown = ownError ?? error ?? null;

  const check = (text: string) => setOwnError(totpSeedProblem(text));

  const readImage = async (file: Blob) => {
    setStatus('Reading the QR code…');
    try {
      // The QR decoder is a large library only this needs: loaded on first use, not with the vault.
      const { decodeQrImage } = await import('../lib/qr-image');
      const text = await decodeQrImage(file);
      onChange(text);
      check(text);
      setStatus('QR code read.');
    } catch (caught) {
      setStatus('');
      // QrImageError's sentence is for the person; anything else (the decoder did not load) is not.
      setOwnError(caught instanceof Error && caught.name === 'QrImageError' ? caught.message : 'This image could not be read.');
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const image = [...event.clipboardData.files].find((file) => file.type.startsWith('image/'));
    if (!image) return;
    event.preventDefault();
    void readImage(image);
  };

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-300">
        One-time code secret (optional)
      </label>
      <input
        id={inputId}
        name="totp"
        autoComplete="off"
        spellCheck={false}
        value={value}
        maxLength={DOCUMENT_LIMITS.totp}
        onChange={(event) => {
          onChange(event.target.value);
          if (ownError !== null) setOwnError(null);
        }}
        onBlur={(event) => check(event.target.value)}
        onPaste={onPaste}
        aria-invalid={shown !== null}
        aria-describedby={shown !== null ? `${errorId} ${hintId}` : hintId}
        className="w-full rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 font-mono text-white outline-none focus:border-cyan-400 aria-[invalid=true]:border-red-400"
      />
      <p id={hintId} className="text-xs text-slate-400">
        Paste the secret or otpauth:// address, or paste or choose a QR code image.
      </p>
      {shown !== null && (
        <p id={errorId} className="text-sm text-red-300">
          {shown}
        </p>
      )}
      <div className="flex items-center gap-3">
        <button type="button" className={`${buttonSecondary} px-3 py-1.5 text-sm`} onClick={() => fileRef.current?.click()}>
          Read QR image
        </button>
        <input
          ref={fileRef}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-label="QR code image"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void readImage(file);
          }}
        />
        <span role="status" className="text-xs text-slate-400">
          {status}
        </span>
      </div>
    </div>
  );
}

/** Why `text` is not a TOTP seed Lockit can use, or null (also for an empty field: none). */
export function totpSeedProblem(text: string): string | null {
  if (text.trim() === '') return null;
  try {
    parseTotpSeed(text);
    return null;
  } catch (error) {
    return error instanceof TotpSeedError ? error.message : 'This is not a TOTP secret Lockit can read.';
  }
}
