import { KdfParamsRejectedError } from '@lockit/crypto';
import { useId, useRef, useState, type FormEvent } from 'react';
import { PasswordInput } from '@/components/ui/password-input';
import { buttonPrimary, card } from '@/components/ui/styles';
import { KeyDerivationError } from '@/lib/derive-keys';
import { useUnlockedVault } from '@/lib/keyring-context';
import { logFailure } from '@/lib/log';
import { unlockVault, WrongMasterPasswordError } from '../lib/unlock-vault';
import { MissingHistoryError } from '@lockit/client-core';
import { collectVault, fetchSealedVault, type CollectProgress, type SealedVault } from './collect-vault';
import { useVaultFileCount } from './use-vault-file-count';
import { openVaultFiles, planBackupFiles } from './backup-files';
import { backupPasswordProblem, buildExportFile, downloadFile, prepareBackupSealer, type ExportFormat } from './export-file';

interface FormatChoice {
  value: ExportFormat;
  label: string;
  description: string;
}

const FORMATS: FormatChoice[] = [
  {
    value: 'backup',
    label: 'Encrypted Lockit backup (recommended)',
    description:
      'Everything: every item, custom field, one-time code secret, folder, tag, favourite, history and attached file, under a password you choose. Opens without our server (see docs/backup-format.md).',
  },
  {
    value: 'bitwarden-json',
    label: 'Bitwarden (JSON), not encrypted',
    description: 'Every item, cards and identities included, for Bitwarden or Vaultwarden. Tags become a "Tags" field.',
  },
  {
    value: 'bitwarden-csv',
    label: 'Bitwarden (CSV), not encrypted',
    description: 'Logins and secure notes only: Bitwarden’s CSV has no place for cards and identities (use the JSON for those).',
  },
  {
    value: 'generic-csv',
    label: 'Spreadsheet (CSV), not encrypted',
    description: 'One row per item, every field in its own column, for reading in a spreadsheet.',
  },
];

type Status =
  | { state: 'idle' }
  | { state: 'verifying' }
  | { state: 'collecting'; progress: CollectProgress }
  | { state: 'building'; files?: { done: number; total: number } }
  | { state: 'done'; message: string }
  | { state: 'error'; message: string };

const UNEXPECTED = 'The export could not be made. Please try again.';

/** Performance marks the export bench reads (`lockit:export:<step>`): where the time goes. */
const exportMark = (step: 'start' | 'verified' | 'collected' | 'built') => performance.mark(`lockit:export:${step}`);

function refusalMessage(error: unknown): string | null {
  if (error instanceof WrongMasterPasswordError) return 'That master password is not right. Nothing was exported.';
  if (error instanceof MissingHistoryError) return `${error.message} Nothing was exported.`;
  if (error instanceof KdfParamsRejectedError || error instanceof KeyDerivationError) return error.message;
  return null;
}

/**
 * The export form. The master password is checked by deriving the keys and opening the
 * vault key as an unlock does, without touching this tab's session or keyring (the sealed
 * list is fetched meanwhile); only then is the vault decrypted, the file built in this tab
 * and handed to the browser's download.
 */
export function ExportForm({ vaultKey }: { vaultKey: CryptoKey }) {
  const account = useUnlockedVault()?.username ?? '';
  const warningId = useId();
  const [format, setFormat] = useState<ExportFormat>('backup');
  const [includeTrash, setIncludeTrash] = useState(false);
  const [acknowledged, setAcknowledged] = useState(false);
  const [masterPassword, setMasterPassword] = useState('');
  const [backupPassword, setBackupPassword] = useState('');
  const [backupPasswordAgain, setBackupPasswordAgain] = useState('');
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  const running = useRef(false);
  const plain = format !== 'backup';
  const fileCount = useVaultFileCount();
  const hasFiles = fileCount !== null && fileCount > 0;
  const filesNote = `Your vault has attached files, and ${FORMATS.find((choice) => choice.value === format)?.label.replace(/, not encrypted$/, '') ?? 'this format'} cannot carry files: they are not in this export. Download them from their items to keep them.`;
  const busy = status.state === 'verifying' || status.state === 'collecting' || status.state === 'building';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (running.current) return;
    if (masterPassword === '') return setStatus({ state: 'error', message: 'Enter your master password.' });
    if (plain && !acknowledged) {
      return setStatus({ state: 'error', message: 'Confirm that you understand the file is not encrypted.' });
    }
    if (!plain) {
      const problem = backupPasswordProblem(backupPassword, backupPasswordAgain, masterPassword);
      if (problem !== null) return setStatus({ state: 'error', message: problem });
    }
    running.current = true;
    try {
      setStatus({ state: 'verifying' });
      exportMark('start');
      // Ciphertext only, fetched while Argon2id checks the password; dropped if it is wrong.
      let sealedVault: Promise<SealedVault> | undefined;
      await unlockVault(masterPassword, account, {
        whileDeriving: () => {
          sealedVault = fetchSealedVault();
          sealedVault.catch(() => {});
        },
      });
      exportMark('verified');
      setStatus({ state: 'collecting', progress: { done: 0, total: 0 } });
      // The backup's Argon2id runs in its worker while the vault is decrypted in theirs.
      const sealer = plain ? undefined : prepareBackupSealer(backupPassword);
      // Awaited by buildExportFile; a failure while collecting must not leave it unhandled.
      sealer?.catch(() => {});
      // The backup carries the files: their list is fetched and opened while the items are.
      const vaultFiles = plain ? undefined : openVaultFiles(vaultKey);
      vaultFiles?.catch(() => {});
      const collected = await collectVault(vaultKey, {
        includeTrash,
        sealed: sealedVault,
        onProgress: (progress) => setStatus({ state: 'collecting', progress }),
      });
      exportMark('collected');
      setStatus({ state: 'building' });
      const { contents, files, damagedFiles, missingFiles } = await planBackupFiles(collected, vaultFiles, (done, total) =>
        setStatus({ state: 'building', files: { done, total } }),
      );
      const file = await buildExportFile(format, contents, { backupPassword, sealer, files });
      exportMark('built');
      downloadFile(file);
      const count = collected.contents.items.length - file.leftOut;
      const notes = [
        file.files !== undefined && `It includes ${file.files} attached file(s).`,
        damagedFiles > 0 && `${damagedFiles} damaged file(s) could not be decrypted and are not in it.`,
        missingFiles > 0 &&
          `${missingFiles} file(s) their items list were not served by the server, or were changed there, and are not in it.`,
        file.leftOut > 0 && `${file.leftOut} card or identity item(s) are not in it (Bitwarden’s CSV cannot hold them).`,
        plain && hasFiles && filesNote,
        collected.damagedItems > 0 && `${collected.damagedItems} damaged item(s) could not be decrypted and are not in it.`,
        collected.damagedVersions > 0 &&
          `${collected.damagedVersions} earlier version(s) could not be decrypted and are not in it.`,
      ].filter(Boolean);
      setStatus({ state: 'done', message: [`Saved ${file.name} with ${count} item(s).`, ...notes].join(' ') });
      setMasterPassword('');
      setBackupPassword('');
      setBackupPasswordAgain('');
    } catch (error) {
      const refusal = refusalMessage(error);
      if (refusal === null) logFailure('Exporting the vault', error);
      setStatus({ state: 'error', message: refusal ?? UNEXPECTED });
    } finally {
      running.current = false;
    }
  };

  const filesIncluded =
    fileCount === null || fileCount === 0
      ? null
      : `It includes your ${fileCount} attached file(s), encrypted under the backup password${includeTrash ? '' : ' (those of items in Trash only when Trash is included)'}.`;

  return (
    <form onSubmit={(event) => void onSubmit(event)} className={`${card} mt-6 flex max-w-2xl flex-col gap-5`} noValidate>
      <fieldset className="flex flex-col gap-3" disabled={busy}>
        <legend className="mb-2 text-lg font-semibold text-white">Format</legend>
        {FORMATS.map((choice) => (
          <label
            key={choice.value}
            className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 rounded-lg border border-slate-700 p-3 has-[:checked]:border-cyan-400"
          >
            <input
              type="radio"
              name="format"
              value={choice.value}
              checked={format === choice.value}
              onChange={() => setFormat(choice.value)}
              className="row-span-2 mt-1 accent-cyan-400"
            />
            <span className="font-medium text-white">{choice.label}</span>
            <span className="text-sm text-slate-300">{choice.description}</span>
          </label>
        ))}
      </fieldset>

      {plain && (
        <div
          id={warningId}
          role="alert"
          className="rounded-lg border border-amber-500 bg-amber-950/60 p-4 text-sm text-amber-100"
        >
          <p className="font-semibold">This file is not encrypted.</p>
          <p className="mt-1">
            It holds every password, one-time code secret and card number in the clear. Anyone who gets a copy can read them.
            Import it where you are going, then delete it (and empty the trash of your computer).
          </p>
          <label className="mt-3 flex items-start gap-2">
            <input
              type="checkbox"
              checked={acknowledged}
              onChange={(event) => setAcknowledged(event.target.checked)}
              className="mt-1 accent-amber-400"
              disabled={busy}
            />
            <span>I understand that this file is not protected.</span>
          </label>
        </div>
      )}
      {!plain && filesIncluded !== null && (
        <p role="note" className="rounded-lg border border-slate-600 p-3 text-sm text-slate-200">
          {filesIncluded}
        </p>
      )}
      {plain && hasFiles && (
        <p role="note" className="rounded-lg border border-slate-600 p-3 text-sm text-slate-200">
          {filesNote}
        </p>
      )}

      <label className="flex items-center gap-2 text-slate-200">
        <input
          type="checkbox"
          checked={includeTrash}
          onChange={(event) => setIncludeTrash(event.target.checked)}
          className="accent-cyan-400"
          disabled={busy}
        />
        Include items in Trash
      </label>

      <PasswordInput
        label="Master Password"
        name="master-password"
        autoComplete="current-password"
        value={masterPassword}
        onChange={(event) => setMasterPassword(event.target.value)}
        disabled={busy}
        required
      />
      {!plain && (
        <>
          <PasswordInput
            label="Backup password"
            name="backup-password"
            autoComplete="new-password"
            value={backupPassword}
            onChange={(event) => setBackupPassword(event.target.value)}
            disabled={busy}
            required
          />
          <PasswordInput
            label="Backup password again"
            name="backup-password-again"
            autoComplete="new-password"
            value={backupPasswordAgain}
            onChange={(event) => setBackupPasswordAgain(event.target.value)}
            disabled={busy}
            required
          />
          <p className="-mt-2 text-sm text-slate-400">
            At least 12 characters, and not your master password. Lockit cannot recover it: without it the backup cannot be
            opened.
          </p>
        </>
      )}

      <button type="submit" className={buttonPrimary} disabled={busy}>
        Export
      </button>
      <ExportStatus status={status} />
    </form>
  );
}

function ExportStatus({ status }: { status: Status }) {
  if (status.state === 'error') {
    return (
      <p role="alert" className="text-sm text-red-300">
        {status.message}
      </p>
    );
  }
  const text =
    status.state === 'verifying'
      ? 'Checking your master password…'
      : status.state === 'collecting'
        ? `Decrypting items: ${status.progress.done} of ${status.progress.total}`
        : status.state === 'building'
          ? status.files
            ? `Adding attached files: ${status.files.done} of ${status.files.total}`
            : 'Building the file…'
          : status.state === 'done'
            ? status.message
            : '';
  return (
    <div className="flex flex-col gap-2">
      {status.state === 'collecting' && status.progress.total > 0 && (
        <progress
          className="h-2 w-full accent-cyan-400"
          max={status.progress.total}
          value={status.progress.done}
          aria-label="Export progress"
        />
      )}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-300">
        {text}
      </p>
    </div>
  );
}
