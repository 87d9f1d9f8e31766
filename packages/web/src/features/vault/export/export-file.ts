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
import type { AttachmentPlatform, OpenedAttachment } from '@lockit/client-core';
import { deriveMasterKeyBytes } from '@/lib/derive-keys';
import { sealBackupWithFiles } from './backup-files';

export const EXPORT_FORMATS = ['backup', 'bitwarden-json', 'bitwarden-csv', 'generic-csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportFile {
  name: string;
  type: string;
  text: string;
  /** The file when it is binary (a backup with attached files); `text` is then empty. */
  blob?: Blob;
  /** Attached files in it (a backup with files). */
  files?: number;
  /** Items of the vault the format could not hold (cards and identities in Bitwarden's CSV). */
  leftOut: number;
}

/** YYYY-MM-DD in the person's own time zone: the day they made the file. */
export function fileDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function fileNameOf(format: ExportFormat, now: Date, withFiles = false): string {
  const day = fileDate(now);
  switch (format) {
    case 'backup':
      // A backup with files is binary (docs/backup-format.md, version 2): not named as JSON.
      return `lockit-backup-${day}.${withFiles ? 'lockit' : 'json'}`;
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

/** A backup's attached files, in the places of its items (see withFiles), and how to fetch them. */
export interface BackupFilesPlan {
  attached: OpenedAttachment[][];
  platform: AttachmentPlatform;
  onFile?: (done: number, total: number) => void;
}

/**
 * The file of the chosen format, built in this tab. The backup is sealed by `sealer` when one
 * was prepared (prepareBackupSealer), else under a key derived from `backupPassword` now; with
 * `files` (contents of version 2) it is the version 2 file, its files streamed into a Blob.
 */
export async function buildExportFile(
  format: ExportFormat,
  contents: BackupContents,
  {
    backupPassword,
    sealer,
    files,
    now = new Date(),
  }: { backupPassword: string; sealer?: Promise<BackupSealer>; files?: BackupFilesPlan; now?: Date },
): Promise<ExportFile> {
  const name = fileNameOf(format, now, format === 'backup' && files !== undefined);
  if (format === 'backup') {
    const seal = await (sealer ?? prepareBackupSealer(backupPassword));
    if (files !== undefined) {
      const blob = await sealBackupWithFiles(seal, contents, files.attached, files.platform, files.onFile);
      const count = files.attached.reduce((sum, list) => sum + list.length, 0);
      return { name, type: 'application/octet-stream', text: '', blob, files: count, leftOut: 0 };
    }
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
  const url = URL.createObjectURL(file.blob ?? new Blob([file.text], { type: `${file.type};charset=utf-8` }));
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
