import { transferItemOf } from '../backup/backup-contents';
import { BACKUP_FORMAT } from '../backup/backup-envelope';
import { openBackupFile } from '../backup/open-backup-file';
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
 * A version 2 file's attached files come back as each item's `attachments`, for the import to
 * upload once the item exists.
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
    const { contents, files } = await openBackupFile(file.bytes, options.password);
    options.onProgress?.(1);
    const items = contents.items.map((item, index) => {
      const transfer = transferItemOf(item);
      const attached = files.get(index);
      if (attached !== undefined) transfer.attachments = attached;
      return transfer;
    });
    return { format: 'lockit-backup', items, skipped: [] };
  },
};
