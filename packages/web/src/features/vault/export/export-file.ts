import {
  BACKUP_PASSWORD_MIN_LENGTH,
  backupSealer,
  toBitwardenCsv,
  toBitwardenJson,
  toGenericCsv,
  transferItemOf,
  type BackupContents,
  type BackupSealer,
} from '@lockit/transfer';
import { deriveMasterKeyBytes } from '@/lib/derive-keys';

export const EXPORT_FORMATS = ['backup', 'bitwarden-json', 'bitwarden-csv', 'generic-csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportFile {
  name: string;
  type: string;
  text: string;
  /** Items of the vault the format could not hold (cards and identities in Bitwarden's CSV). */
  leftOut: number;
}

/** YYYY-MM-DD in the person's own time zone: the day they made the file. */
export function fileDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function fileNameOf(format: ExportFormat, now: Date): string {
  const day = fileDate(now);
  switch (format) {
    case 'backup':
      return `lockit-backup-${day}.json`;
    case 'bitwarden-json':
      return `lockit-bitwarden-${day}.json`;
    case 'bitwarden-csv':
      return `lockit-bitwarden-${day}.csv`;
    case 'generic-csv':
      return `lockit-export-${day}.csv`;
  }
}

/**
 * What is wrong with the chosen backup password, in one sentence, or null. It must be long
 * and must not be the master password: the file may end up anywhere, and one leaked secret
 * must not open both the file and the account.
 */
export function backupPasswordProblem(password: string, again: string, masterPassword: string): string | null {
  if ([...password].length < BACKUP_PASSWORD_MIN_LENGTH)
    return `The backup password must have at least ${BACKUP_PASSWORD_MIN_LENGTH} characters.`;
  if (password !== again) return 'The two backup passwords are not the same.';
  if (password === masterPassword) return 'Choose a backup password other than your master password.';
  return null;
}

/**
 * Starts the backup's Argon2id (in the KDF worker) for `backupPassword`, so it runs while the
 * vault is still being decrypted; the sealer it resolves to seals one file.
 */
export function prepareBackupSealer(backupPassword: string): Promise<BackupSealer> {
  return backupSealer(backupPassword, { derive: deriveMasterKeyBytes });
}

/**
 * The file of the chosen format, built in this tab. The backup is sealed by `sealer` when one
 * was prepared (prepareBackupSealer), else under a key derived from `backupPassword` now.
 */
export async function buildExportFile(
  format: ExportFormat,
  contents: BackupContents,
  { backupPassword, sealer, now = new Date() }: { backupPassword: string; sealer?: Promise<BackupSealer>; now?: Date },
): Promise<ExportFile> {
  const name = fileNameOf(format, now);
  if (format === 'backup') {
    const seal = await (sealer ?? prepareBackupSealer(backupPassword));
    const text = await seal(contents);
    return { name, type: 'application/json', text, leftOut: 0 };
  }
  const items = contents.items.map(transferItemOf);
  if (format === 'bitwarden-json') {
    return { name, type: 'application/json', text: toBitwardenJson(items, { folders: contents.folders }), leftOut: 0 };
  }
  if (format === 'bitwarden-csv') {
    const { csv, leftOut } = toBitwardenCsv(items);
    return { name, type: 'text/csv', text: csv, leftOut };
  }
  return { name, type: 'text/csv', text: toGenericCsv(items), leftOut: 0 };
}

/** Saves the file through the browser's download: a Blob URL on a link with `download`, revoked after. */
export function downloadFile(file: ExportFile): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: `${file.type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; keep it a moment for slower browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
