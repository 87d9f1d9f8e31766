import { useId, useMemo, useState } from 'react';
import { generateEd25519SshKey, parseSshPrivateKey, sshKeyNeedsPassphrase, type SshKeyDraft } from '@lockit/client-core';
import { TextInput } from '@/components/ui/text-input';
import type { FieldErrorProps } from './entry-form-model';
import { SshKeyPassphraseField } from './ssh-key-passphrase-field';
import { sshKeyProblem } from './ssh-key-problem';

const button =
  'rounded-lg border border-slate-700 px-3 py-1.5 text-sm text-slate-200 hover:bg-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-cyan-400';

/** What the editor shows of the key typed so far: its public half, or why it cannot be taken. */
function describeKey(privateKey: string): { publicKey: string; fingerprint: string } | { error: string } | null {
  if (privateKey.trim() === '') return null;
  const problem = sshKeyProblem(privateKey);
  if (problem !== null) return { error: problem };
  const parsed = parseSshPrivateKey(privateKey);
  return { publicKey: parsed.publicKey, fingerprint: parsed.fingerprint };
}

/**
 * An SSH key item's editor: generate a new Ed25519 key in the browser (WebCrypto) or paste an
 * OpenSSH private key; the public key and fingerprint are derived from it and shown, the public
 * key copied with one click. The private key stays hidden behind Show once there is one.
 */
export function SshKeyFields({
  sshKey,
  onChange,
  errorProps,
}: {
  sshKey: SshKeyDraft;
  onChange(change: Partial<SshKeyDraft>): void;
  errorProps: FieldErrorProps;
}) {
  const keyId = useId();
  const errorId = errorProps.errorId('privateKey');
  const [revealed, setRevealed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [generateError, setGenerateError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const described = useMemo(() => describeKey(sshKey.privateKey), [sshKey.privateKey]);
  const locked = useMemo(() => sshKeyNeedsPassphrase(sshKey.privateKey), [sshKey.privateKey]);
  const hidden = sshKey.privateKey !== '' && !revealed;
  // The live reading of the key, else the refused submit's message (an empty key). A key behind a
  // passphrase asks for it instead, unless a refused submit has said so already.
  const problem =
    described !== null && 'error' in described && !locked ? described.error : (errorProps.errors.privateKey ?? null);

  const generate = async () => {
    setBusy(true);
    setGenerateError(null);
    try {
      onChange({ privateKey: await generateEd25519SshKey(sshKey.comment.trim()) });
      errorProps.clearError('privateKey');
      setRevealed(false);
    } catch {
      setGenerateError('This browser cannot make Ed25519 keys. Make one with ssh-keygen -t ed25519 and paste it here.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-800 p-3">
      <legend className="px-1 text-sm font-medium text-slate-300">SSH key</legend>
      <TextInput
        label="Comment"
        autoComplete="off"
        value={sshKey.comment}
        maxLength={200}
        onChange={(event) => onChange({ comment: event.target.value })}
      />
      <div className="flex flex-wrap gap-2">
        <button type="button" className={button} disabled={busy} onClick={() => void generate()}>
          Generate Ed25519 key
        </button>
        {sshKey.privateKey !== '' && (
          <button type="button" className={button} onClick={() => setRevealed((value) => !value)}>
            {hidden ? 'Show private key' : 'Hide private key'}
          </button>
        )}
      </div>
      {generateError && <p className="text-sm text-red-400">{generateError}</p>}
      {hidden ? (
        <p className="font-mono text-sm text-slate-400">Private key: ••••••••</p>
      ) : (
        <div className="flex flex-col gap-1">
          <label htmlFor={keyId} className="text-sm font-medium text-slate-300">
            Private key (OpenSSH)
          </label>
          <textarea
            id={keyId}
            rows={6}
            spellCheck={false}
            autoComplete="off"
            placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
            value={sshKey.privateKey}
            maxLength={16000}
            onChange={(event) => {
              onChange({ privateKey: event.target.value });
              errorProps.clearError('privateKey');
            }}
            aria-invalid={problem !== null}
            aria-describedby={problem !== null ? errorId : undefined}
            className="w-full rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 font-mono text-xs text-white outline-none focus:border-cyan-400"
          />
        </div>
      )}
      {locked && (
        <SshKeyPassphraseField
          privateKey={sshKey.privateKey}
          onOpened={(opened) => {
            onChange({ privateKey: opened });
            errorProps.clearError('privateKey');
            setRevealed(false);
          }}
        />
      )}
      {problem !== null && (
        <p id={errorId} role="alert" className="text-sm text-red-400">
          {problem}
        </p>
      )}
      {described && 'publicKey' in described && (
        <div className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-slate-300">Public key</span>
          <code data-testid="ssh-public-key" className="break-all rounded bg-slate-900 p-2 text-xs text-slate-200">
            {described.publicKey}
          </code>
          <span className="text-slate-400">
            Fingerprint: <code data-testid="ssh-fingerprint">{described.fingerprint}</code>
          </span>
          <button
            type="button"
            className={`${button} self-start`}
            onClick={() => void navigator.clipboard.writeText(described.publicKey).then(() => setCopied(true))}
          >
            {copied ? 'Public key copied' : 'Copy public key'}
          </button>
        </div>
      )}
    </fieldset>
  );
}
