import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebauthnCredential } from '@lockit/contract';
import { buttonPrimary, buttonSecondary, card } from '@/components/ui/styles';
import { twoFactorQueryKey, useTwoFactorStatus } from '../api/two-factor-status';
import type { UnlockOutcome } from '../lib/add-webauthn-credential';
import { relativeTime } from '../lib/relative-time';
import { AddCredentialDialog, RemoveCredentialDialog, RenameCredentialDialog } from './passkey-dialogs';
import { RecoveryCodesDialog } from './recovery-codes-dialog';

export const NO_PRF_TEXT =
  "This passkey can't unlock your vault: its authenticator has no PRF support. It works as a second step at sign-in.";

const OUTCOME_TEXT: Record<UnlockOutcome, string> = {
  unlocks: 'Passkey added: it signs you in and unlocks your vault.',
  'no-prf': NO_PRF_TEXT,
  cancelled:
    'Passkey added, but its unlock was not set up: the second prompt was cancelled. It works as a second step at sign-in; remove it and add it again to unlock with it.',
  'second-step': 'Security key added: it is asked as a second step at sign-in.',
};

type Open =
  | { kind: 'add'; passkey: boolean }
  | { kind: 'rename'; credential: WebauthnCredential }
  | { kind: 'remove'; credential: WebauthnCredential }
  | { kind: 'codes'; codes: string[] };

/**
 * "Passkeys and security keys": the account's WebAuthn credentials; add a passkey
 * (signs in and, with PRF, unlocks) or a security key (second step only); rename; remove.
 * Adding and removing ask the master password: its authKey proves it to the server.
 */
export function PasskeysSection({ username }: { username: string }) {
  const status = useTwoFactorStatus();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Open | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const done = (text: string, ok = true) => {
    setOpen(null);
    setOutcome({ ok, text });
    void queryClient.invalidateQueries({ queryKey: twoFactorQueryKey });
  };
  const start = (next: Open) => {
    setOutcome(null);
    setOpen(next);
  };

  return (
    <section aria-labelledby="passkeys-title" className={card}>
      <h2 id="passkeys-title" className="mb-2 text-xl font-semibold text-white">
        Passkeys and security keys
      </h2>
      <p className="mb-4 text-sm text-slate-400">
        A passkey signs you in and can unlock your vault without your master password. A security key is asked as a second step
        after your password. Your master password keeps working.
      </p>
      {status.isPending && <p className="text-sm text-slate-400">Loading passkeys...</p>}
      {status.isError && <p className="text-sm text-rose-300">Your passkeys could not be loaded. Reload to try again.</p>}
      {status.isSuccess && status.data.credentials.length === 0 && (
        <p className="text-sm text-slate-300">No passkeys or security keys yet.</p>
      )}
      {status.isSuccess && status.data.credentials.length > 0 && (
        <ul aria-label="Passkeys and security keys" className="flex flex-col divide-y divide-slate-800">
          {status.data.credentials.map((credential) => (
            <CredentialRow
              key={credential.id}
              credential={credential}
              onRename={() => start({ kind: 'rename', credential })}
              onRemove={() => start({ kind: 'remove', credential })}
            />
          ))}
        </ul>
      )}
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <button type="button" className={buttonPrimary} onClick={() => start({ kind: 'add', passkey: true })}>
          Add a passkey
        </button>
        <button type="button" className={buttonSecondary} onClick={() => start({ kind: 'add', passkey: false })}>
          Add a security key
        </button>
      </div>
      {outcome && (
        <p
          role={outcome.ok ? 'status' : 'alert'}
          className={`mt-3 text-sm ${outcome.ok ? 'text-emerald-300' : 'text-amber-200'}`}
        >
          {outcome.text}
        </p>
      )}
      {open?.kind === 'add' && (
        <AddCredentialDialog
          username={username}
          passkey={open.passkey}
          onClose={() => setOpen(null)}
          onAdded={(added) => {
            done(OUTCOME_TEXT[added.unlock], added.unlock === 'unlocks' || added.unlock === 'second-step');
            // The account's first factor came with its recovery codes: this answer is the only
            // time they exist in the clear, so they are shown now or never.
            if (added.recoveryCodes) setOpen({ kind: 'codes', codes: added.recoveryCodes });
          }}
        />
      )}
      {open?.kind === 'rename' && (
        <RenameCredentialDialog
          credential={open.credential}
          onClose={() => setOpen(null)}
          onRenamed={(message) => done(message)}
        />
      )}
      {open?.kind === 'remove' && (
        <RemoveCredentialDialog
          username={username}
          credential={open.credential}
          onClose={() => setOpen(null)}
          onRemoved={() => done(removedText(open.credential))}
        />
      )}
      {open?.kind === 'codes' && <RecoveryCodesDialog codes={open.codes} onClose={() => setOpen(null)} />}
    </section>
  );
}

/**
 * A removed passkey that could unlock leaves a copy of the vault key, wrapped for it, wherever the
 * server kept one (a backup, or a server that lies about deleting it): only a new vault key makes
 * that copy open nothing, so the person is told and pointed to the rotation.
 */
export function removedText(credential: WebauthnCredential): string {
  if (!credential.canUnlock) return `Removed ${credential.name}.`;
  return `Removed ${credential.name}. It could unlock your vault: to be sure no copy of your vault key made for it still opens anything, rotate your encryption key (Encryption key, below).`;
}

function CredentialRow(props: { credential: WebauthnCredential; onRename: () => void; onRemove: () => void }) {
  const { credential } = props;
  const lastUsed = credential.lastUsedAt ? new Date(credential.lastUsedAt) : null;
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-semibold break-all text-white">
          <span>{credential.name}</span>
          {credential.canUnlock && (
            <span className="rounded-full bg-emerald-900/60 px-2 py-0.5 text-xs font-semibold text-emerald-200">
              Signs in and unlocks
            </span>
          )}
          {credential.backedUp && (
            <span className="rounded-full bg-slate-700 px-2 py-0.5 text-xs font-semibold text-slate-200">Synced</span>
          )}
        </p>
        <p className="text-sm text-slate-400">
          Added <time dateTime={credential.createdAt}>{new Date(credential.createdAt).toLocaleDateString()}</time>
          {' · '}
          {lastUsed ? (
            <>
              Last used{' '}
              <time dateTime={credential.lastUsedAt ?? undefined} title={lastUsed.toLocaleString()}>
                {relativeTime(lastUsed, new Date())}
              </time>
            </>
          ) : (
            'Never used'
          )}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <button type="button" className={buttonSecondary} aria-label={`Rename ${credential.name}`} onClick={props.onRename}>
          Rename
        </button>
        <button type="button" className={buttonSecondary} aria-label={`Remove ${credential.name}`} onClick={props.onRemove}>
          Remove
        </button>
      </div>
    </li>
  );
}
