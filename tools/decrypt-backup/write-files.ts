import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { OpenedBackupStream } from '@lockit/transfer';

/**
 * A name safe as one path segment on every common file system: no separator, control or
 * reserved character, no leading dot (so never `.` or `..`), at most 120 characters. The
 * backup's own names are checked already; this keeps a hand-made file from writing elsewhere.
 */
export function safeName(name: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const cleaned = [...name.replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, '_').replace(/^[.\s]+/, '')].slice(0, 120).join('').trim();
  return cleaned === '' ? fallback : cleaned;
}

/** `name`, or `name (2)`, `name (3)`... before its extension: the first not in `taken`. */
function unique(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

export interface WrittenFile {
  item: string;
  name: string;
  size: number;
  path: string | null;
}

/**
 * Walks every file of an opened version 2 backup, each checked frame by frame as it is read.
 * With `out` (a directory, created owner-only, which must be empty), writes `backup.json` and
 * `files/<NNN item name>/<file name>`, each file first to a `.partial` name renamed once its
 * last frame has passed its check, and removed if one fails. Without `out`, only checks them.
 * Throws at the first file that fails (the files before it stay written: each is whole).
 */
export async function writeBackupFiles(opened: OpenedBackupStream, out: string | undefined): Promise<WrittenFile[]> {
  if (out !== undefined) {
    await mkdir(out, { recursive: true, mode: 0o700 });
    if ((await readdir(out)).length > 0) throw new Error(`${out} is not empty: give a new or empty directory.`);
    await writeFile(join(out, 'backup.json'), `${JSON.stringify(opened.contents, null, 2)}\n`, { mode: 0o600 });
  }
  const written: WrittenFile[] = [];
  const folders = new Map<number, { path: string; taken: Set<string> }>();
  const itemFolders = new Set<string>();
  for await (const { item, file, content } of opened.files()) {
    const itemName = opened.contents.items[item]!.name;
    if (out === undefined) {
      for await (const _ of content) void _;
      written.push({ item: itemName, name: file.name, size: file.size, path: null });
      continue;
    }
    let folder = folders.get(item);
    if (folder === undefined) {
      const name = unique(`${String(item + 1).padStart(3, '0')} ${safeName(itemName, 'item')}`, itemFolders);
      folder = { path: join(out, 'files', name), taken: new Set() };
      await mkdir(folder.path, { recursive: true, mode: 0o700 });
      folders.set(item, folder);
    }
    const path = join(folder.path, unique(safeName(file.name, 'file'), folder.taken));
    const partial = `${path}.partial`;
    const stream = createWriteStream(partial, { mode: 0o600 });
    try {
      for await (const piece of content) {
        if (!stream.write(piece)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
      }
      stream.end();
      await finished(stream);
      await rename(partial, path);
    } catch (error) {
      stream.destroy();
      await rm(partial, { force: true });
      throw error;
    }
    written.push({ item: itemName, name: file.name, size: file.size, path });
  }
  return written;
}
