import { DOCUMENT_LIMITS, type FileRef } from '@lockit/contract';
import { attachmentMetadataProblem, newEntryId } from '@lockit/crypto';
import type { EntryDraft, OpenEntry } from '@lockit/client-core';
import type { TransferAttachment } from '@lockit/transfer';

/** The files of one imported item to send, with the id each goes up under (undefined: one of its own). */
export interface FilesToSend {
  files: TransferAttachment[];
  ids: (string | undefined)[];
  /** What the item lists of them before they are sent. */
  refs: FileRef[];
}

/**
 * The ids an item's imported files go up under, chosen before the item is sealed, so the item
 * lists them from its first save (decision 0084) and an import's undo still finds every new
 * item at its first revision. A file the item already lists (same name and size) is not sent
 * again. A file whose name no file can have, or past the item's limit of files, goes up under
 * an id of its own, unlisted, and fails or is named there with the reason.
 */
export function filesToSend(files: readonly TransferAttachment[], listed: readonly FileRef[]): FilesToSend {
  const out: FilesToSend = { files: [], ids: [], refs: [] };
  for (const file of files) {
    const size = file.bytes.length;
    if (listed.some((had) => had.name === file.name && had.size === size)) continue;
    const fits = listed.length + out.refs.length < DOCUMENT_LIMITS.files;
    const named = attachmentMetadataProblem({ name: file.name, size, type: '' }) === null;
    const id = fits && named ? newEntryId() : undefined;
    out.files.push(file);
    out.ids.push(id);
    if (id !== undefined) out.refs.push({ id, name: file.name, size });
  }
  return out;
}

/**
 * The draft an import saves over an existing item: the imported content, with the item's own
 * file lists kept and the new files added. An item that never listed its files keeps not
 * listing them (its files are then shown as served, the imported ones among them).
 */
export function updateDraftWithFiles(draft: EntryDraft, existing: OpenEntry, sent: FilesToSend): EntryDraft {
  const { files: _imported, deletedFiles: _none, ...content } = draft;
  if (existing.files === undefined) return content;
  const kept = existing.deletedFiles ? { deletedFiles: [...existing.deletedFiles] } : {};
  return { ...content, ...kept, files: [...existing.files.map((file) => ({ ...file })), ...sent.refs] };
}

/** The draft without the listed files that did not go up: what the item is saved again with. */
export function withoutFiles(draft: EntryDraft, failed: ReadonlySet<string>): EntryDraft {
  return { ...draft, files: (draft.files ?? []).filter((file) => !failed.has(file.id)) };
}
