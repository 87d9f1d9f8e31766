import { ImportFileError } from '../import-format';
import type { BackupContents } from './backup-contents';
import { streamHeaderLine } from './backup-stream-format';
import type { DeriveBackupSecret } from './backup-keys';
import { openBackup } from './open-backup';
import { openBackupStream } from './open-backup-stream';

/** A backup opened whole: its contents and, per item index, its files' bytes in order. */
export interface OpenedBackupWhole {
  contents: BackupContents;
  files: Map<number, Array<{ name: string; bytes: Uint8Array }>>;
}

/**
 * Opens a backup file of either version held in memory (the import page reads the picked file
 * whole, as for every format). Version 1 has no files. For version 2 the sizes the contents
 * list must fit in the file before any is allocated, so a crafted list cannot make this
 * allocate more than the file's own size; every file is checked to its end (and nothing may
 * follow the last) before anything is returned. Errors as openBackup and openBackupStream.
 */
export async function openBackupFile(
  bytes: Uint8Array,
  password: string | undefined,
  options: { derive?: DeriveBackupSecret } = {},
): Promise<OpenedBackupWhole> {
  if (streamHeaderLine(bytes) === null) {
    const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
    return { contents: await openBackup(text, password, options), files: new Map() };
  }
  async function* whole() {
    yield bytes;
  }
  const opened = await openBackupStream(whole(), password, options);
  const listed = opened.contents.items.reduce(
    (sum, item) => sum + (item.files ?? []).reduce((size, file) => size + file.size, 0),
    0,
  );
  if (listed > bytes.length) throw new ImportFileError('This backup is cut short: it lists more file bytes than it holds.');
  const files = new Map<number, Array<{ name: string; bytes: Uint8Array }>>();
  for await (const { item, file, content } of opened.files()) {
    const out = new Uint8Array(file.size);
    let at = 0;
    for await (const piece of content) {
      out.set(piece, at);
      at += piece.length;
    }
    const list = files.get(item) ?? [];
    list.push({ name: file.name, bytes: out });
    files.set(item, list);
  }
  return { contents: opened.contents, files };
}
