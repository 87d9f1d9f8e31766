import { transferItemOf } from '../backup/backup-contents';
import { BACKUP_FORMAT } from '../backup/backup-envelope';
import { openBackup } from '../backup/open-backup';
import type { ImportFile, ImportFormat, ParseResult } from '../import-format';

const decoder = new TextDecoder('utf-8');

/** The first bytes of the file as text (enough to see the envelope's opening keys). */
function head(file: ImportFile): string {
  return decoder.decode(file.bytes.subarray(0, 512)).replace(/^\uFEFF/, '');
}

/**
 * Lockit's own encrypted backup (docs/backup-format.md). Every item comes back with its
 * earlier passwords (from its history, newest first) and, when the backup included Trash,
 * `trashedAt` set on the items that were in Trash, for the import to show and keep there.
 * Folders without items are not items, so they do not appear here; `openBackup` has them.
 */
export const lockitBackupFormat: ImportFormat = {
  id: 'lockit-backup',
  label: 'Lockit (encrypted backup)',
  detect(file) {
    const text = head(file);
    if (!text.trimStart().startsWith('{')) return 0;
    return new RegExp(`"format"\\s*:\\s*"${BACKUP_FORMAT}"`).test(text) ? 1 : 0;
  },
  async parse(file, options): Promise<ParseResult> {
    const text = decoder.decode(file.bytes).replace(/^\uFEFF/, '');
    const contents = await openBackup(text, options.password);
    options.onProgress?.(1);
    return { format: 'lockit-backup', items: contents.items.map(transferItemOf), skipped: [] };
  },
};
