import type { FileRef } from '@lockit/contract';
import type { DamagedAttachment, ListedAttachment, OpenedAttachment } from './opened-attachment';

/** A file the item lists that the server did not serve: withheld, deleted behind the item's back, or never uploaded whole. */
export interface MissingAttachment {
  kind: 'missing';
  id: string;
  /** The name and size the item lists, which the person last saw. */
  name: string;
  size: number;
  problem: string;
}

export type ItemFile = OpenedAttachment | DamagedAttachment | MissingAttachment;

/** What the item view shows: the item's files, and the served files it does not list. */
export interface ItemFiles {
  files: ItemFile[];
  /**
   * Files the item no longer lists that an earlier version of it (in its history) does: kept
   * for those versions, so restoring one brings its files back.
   */
  kept: OpenedAttachment[];
  /**
   * Files the server serves for this item that neither the item nor any version in its
   * history lists: a deleted file brought back, or an upload that stopped between its last
   * byte and the item's save. Shown apart, never as the item's files; the person keeps or
   * deletes each.
   */
  unlisted: ListedAttachment[];
  /** Whether the item lists its files (decision 0084); false: an item from before, shown as served. */
  listed: boolean;
}

export const MISSING_FILE_PROBLEM =
  'The item lists this file, but the server did not serve it: it was withheld or deleted there, or its upload never finished.';
export const OTHER_SIZE_PROBLEM =
  'The server serves this file with another size than the item lists: it is not the file that was attached.';

/**
 * The item's files as the item itself lists them, checked against what the server served
 * (decision 0084). The list is sealed in the item, so it is in the whole-vault integrity set
 * and in history: the server cannot add, drop or roll back a file without this showing it.
 *
 * Security invariants: a listed file the server did not serve is `missing`, never silently
 * absent; a served file whose sealed size differs from the listed one is damaged; a served
 * file the item does not list is never among `files`, and is `unlisted` unless a version in
 * the item's history lists it and the item does not say it was deleted for good (then
 * `kept`). An item that never listed its files (`refs` undefined) shows what was served, as
 * before lists existed.
 */
export function itemFilesOf(
  refs: readonly FileRef[] | undefined,
  served: readonly ListedAttachment[],
  /** Ids of the files the item's earlier versions list (none known: empty). */
  inHistory: ReadonlySet<string> = new Set(),
  /** Ids of the files the item says were deleted for good (its `deletedFiles`). */
  deletedForGood: readonly string[] = [],
): ItemFiles {
  if (refs === undefined) return { files: [...served], kept: [], unlisted: [], listed: false };
  const byId = new Map<string, ListedAttachment>();
  for (const file of served) byId.set(attachmentIdOf(file), file);
  const files: ItemFile[] = refs.map((ref) => {
    const found = byId.get(ref.id.toLowerCase());
    if (found === undefined)
      return { kind: 'missing', id: ref.id, name: ref.name, size: ref.size, problem: MISSING_FILE_PROBLEM };
    if (found.kind !== 'file') return found;
    if (found.size !== ref.size) return { kind: 'damaged', id: ref.id, problem: OTHER_SIZE_PROBLEM };
    // The name the item lists wins: a rename the server rolled back in the file's own metadata changes nothing.
    return { ...found, name: ref.name };
  });
  const listedIds = new Set(refs.map((ref) => ref.id.toLowerCase()));
  const deleted = new Set(deletedForGood.map((id) => id.toLowerCase()));
  const historyIds = new Set([...inHistory].map((id) => id.toLowerCase()).filter((id) => !deleted.has(id)));
  const kept: OpenedAttachment[] = [];
  const unlisted: ListedAttachment[] = [];
  for (const file of served) {
    if (listedIds.has(attachmentIdOf(file))) continue;
    if (file.kind === 'file' && historyIds.has(attachmentIdOf(file))) kept.push(file);
    else unlisted.push(file);
  }
  return { files, kept, unlisted, listed: true };
}

/** The item's list as it is once the served files are first listed: every file that opened. */
export function refsOfServed(served: readonly ListedAttachment[]): FileRef[] {
  return served.filter((file): file is OpenedAttachment => file.kind === 'file').map(refOf);
}

export const refOf = (file: Pick<OpenedAttachment, 'ids' | 'name' | 'size'>): FileRef => ({
  id: file.ids.fileId,
  name: file.name,
  size: file.size,
});

/** A served file's id, lower case, whether it opened or not. */
export const attachmentIdOf = (file: ListedAttachment) => (file.kind === 'file' ? file.ids.fileId : file.id).toLowerCase();
