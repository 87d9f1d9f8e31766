import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { ImportFileError } from '../import-format';
import { AttachmentBudget, joinChunks } from './attachment-budget';

/** What a .1pux may make Lockit inflate. docs/decisions/0035-keepass-and-1pux-bounds.md. */
export const ONEPUX_LIMITS = {
  /** The .1pux as picked (attachments inside make it larger than a plain export). */
  fileBytes: 200 * 1024 * 1024,
  /** export.data once inflated: the JSON of every item, never near this for a real vault. */
  exportDataBytes: 200 * 1024 * 1024,
  /** Past 1 MB inflated, more than this many bytes out per byte in is a ZIP bomb, not JSON (~5-20:1). */
  maxRatio: 200,
  ratioCheckAfterBytes: 1024 * 1024,
} as const;

const CHUNK = 16 * 1024;

/**
 * The text of export.data in a .1pux archive, and the attached files under files/ by their
 * name in the archive ("files/<documentId>__<fileName>").
 *
 * Security invariant: only export.data and files under files/ are ever inflated, and their
 * output is counted as it is produced (not trusted from the ZIP's declared sizes): export.data
 * past 200 MB, or past a 200:1 ratio once 1 MB is out, and the files together past
 * ATTACHMENT_IMPORT_LIMITS, stop inflation and refuse the file. Input is pushed in 16 KB
 * slices, so a single push can yield at most ~16 MB (deflate's ratio is at most ~1032:1)
 * before the next check.
 */
export function readExportData(
  bytes: Uint8Array,
  budget = new AttachmentBudget(),
): { text: string; files: Map<string, Uint8Array> } {
  if (bytes.length > ONEPUX_LIMITS.fileBytes) {
    throw new ImportFileError(
      `The file is larger than ${ONEPUX_LIMITS.fileBytes / 1024 / 1024} MB; Lockit does not read a .1pux that large.`,
    );
  }
  if (!(bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)) {
    throw new ImportFileError('The file is not a 1Password export (.1pux): it is not a ZIP archive.');
  }
  const chunks: Uint8Array[] = [];
  let inflated = 0;
  let consumed = 0;
  let found = false;
  let finished = false;
  const files = new Map<string, Uint8Array>();
  let failure: ImportFileError | null = null;

  const unzip = new Unzip((file) => {
    if (file.name !== 'export.data') {
      if (file.name.startsWith('files/') && !file.name.endsWith('/') && !files.has(file.name)) {
        readAttachment(
          file,
          budget,
          (data) => files.set(file.name, data),
          (error) => (failure ??= error),
        );
      }
      return;
    }
    if (found) return;
    found = true;
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) {
        failure = new ImportFileError(`The archive is damaged: export.data cannot be inflated (${error.message}).`);
        return;
      }
      inflated += chunk.length;
      if (inflated > ONEPUX_LIMITS.exportDataBytes) {
        failure = new ImportFileError(
          `export.data inflates to more than ${ONEPUX_LIMITS.exportDataBytes / 1024 / 1024} MB: the file is refused (a ZIP bomb, or not a real export).`,
        );
        file.terminate();
        return;
      }
      if (inflated > ONEPUX_LIMITS.ratioCheckAfterBytes && inflated / Math.max(consumed, 1) > ONEPUX_LIMITS.maxRatio) {
        failure = new ImportFileError(
          'export.data inflates far more than any real export could (a ZIP bomb): the file is refused.',
        );
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) finished = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < bytes.length && !failure; offset += CHUNK) {
      const end = Math.min(offset + CHUNK, bytes.length);
      consumed = end;
      unzip.push(bytes.subarray(offset, end), end === bytes.length);
    }
  } catch (error) {
    if (!failure)
      failure = new ImportFileError(
        `The archive is damaged or cut short (${error instanceof Error ? error.message : String(error)}).`,
      );
  }
  if (failure) throw failure;
  if (!found) throw new ImportFileError('The archive has no export.data: it is not a 1Password export (.1pux).');
  if (!finished) throw new ImportFileError('The archive is cut short: export.data ends before its end.');
  const data = joinChunks(chunks, inflated);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(data), files };
  } catch {
    throw new ImportFileError('export.data is not UTF-8 text: the archive is not a 1Password export.');
  }
}

/** Inflates one file of files/ under the import's attachment budget; `done` gets it whole. */
function readAttachment(
  file: UnzipFile,
  budget: AttachmentBudget,
  done: (data: Uint8Array) => void,
  fail: (error: ImportFileError) => void,
): void {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let stopped = false;
  file.ondata = (error, chunk, final) => {
    if (stopped) return;
    try {
      if (error) throw new ImportFileError(`The archive is damaged: ${file.name} cannot be inflated (${error.message}).`);
      budget.take(chunk.length);
    } catch (caught) {
      stopped = true;
      fail(caught instanceof ImportFileError ? caught : new ImportFileError(String(caught)));
      file.terminate();
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
    if (final) done(joinChunks(chunks, size));
  };
  file.start();
}

/** How many central directory entries detection reads: a .1pux has export.* first, then files/. */
const MAX_LISTED_ENTRIES = 10_000;

/**
 * The entry names of a ZIP, from its central directory (at the end of the file), without
 * inflating anything; an empty set for anything that is not a readable ZIP. Detection uses it,
 * so it reads at most the last 64 KB for the end record and the directory it points at.
 */
export function zipEntryNames(bytes: Uint8Array): Set<string> {
  const names = new Set<string>();
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return names;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is 22 bytes plus a comment of at most 65,535: search backwards that far.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end === -1) return names;
  const count = Math.min(view.getUint16(end + 10, true), MAX_LISTED_ENTRIES);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  for (let i = 0; i < count && at + 46 <= bytes.length; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) break;
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > bytes.length) break;
    names.add(decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
