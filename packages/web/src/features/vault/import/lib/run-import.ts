import type { AddEntryRequest } from '@lockit/contract';
import { serverMessageOf } from '@/lib/api-errors';
import { api } from '@/lib/http';
import { normaliseTags, sealEntry, toAddRequest, toUpdateRequest } from '@lockit/client-core';
import { sealEntriesInWorkers } from '../../lib/seal-entries-in-workers';
import type { EntryDraft, OpenFolder } from '@lockit/client-core';
import { addEntryBatch } from '../api/add-entry-batch';
import { undoImport } from '../api/undo-import';
import { writtenEntryMember } from '@lockit/client-core';
import { vaultStateHeaders, writeThrough, type VaultIntegrity } from '@lockit/client-core';
import type { AttachmentPlatform } from '@lockit/client-core';
import { pageAttachmentPlatform } from '../../attachments/attachment-platform';
import { chunkEntries } from './batch-chunks';
import { attachImportedFiles, type AttachOutcome, type AttachTarget } from './import-attachments';
import { filesToSend, updateDraftWithFiles, withoutFiles, type FilesToSend } from './import-file-lists';
import { choiceFor, type DuplicateChoice, type ImportPlan, type PlannedItem } from './import-plan';
import { ensureFolders } from './import-folders';

export interface ImportProgress {
  /** Steps done of `total`: each new item is sealed, then stored; each update and each file is one step. */
  done: number;
  total: number;
}

export type ImportOutcome =
  | {
      ok: true;
      batchId: string;
      created: number;
      /** The ids of the items created, for a later undo to name (the vault state needs them). */
      createdIds: string[];
      updated: number;
      /** Updates the server refused (changed elsewhere meanwhile...): the item is as it was. */
      updateFailures: Array<{ name: string; message: string }>;
      folders: OpenFolder[];
      /** Files of the import file attached to their items, and those that were not, by name. */
      files: AttachOutcome;
    }
  /** `stranded`: items of `batchId` landed and could not be removed (the undo may be tried again). */
  | { ok: false; message: string; batchId: string; stranded: number; strandedIds: string[] };

/**
 * Seals `planned` as new items (fresh client-made ids, as for any add), in the crypto workers,
 * each listing the files `sending` names for it; the drafts sealed, by id, for a later save.
 */
async function sealAll(
  vaultKey: CryptoKey,
  planned: readonly PlannedItem[],
  sending: readonly FilesToSend[],
  folderIds: ReadonlyMap<string, string>,
  onSealed: (count: number) => void,
): Promise<{ bodies: AddEntryRequest[]; drafts: Map<string, EntryDraft> }> {
  const items = planned.map((p, i) => ({
    id: crypto.randomUUID(),
    draft: { ...p.draft, files: sending[i]!.refs, folderId: p.folder === null ? null : (folderIds.get(p.folder) ?? null) },
  }));
  const sealed = await sealEntriesInWorkers(vaultKey, items, { onProgress: onSealed });
  return { bodies: sealed.map(toAddRequest), drafts: new Map(items.map((item) => [item.id, item.draft])) };
}

/**
 * Imports a planned file as one batch (decision 0037):
 *
 * 1. the folders the items name, reusing those of the same path;
 * 2. new items sealed in the crypto workers and sent in calls of at most 500 (POST /api/entries/batch,
 *    each all or nothing), every call under the same batch id;
 * 3. duplicates marked "update" saved over the existing item at its revision (history keeps
 *    the old version).
 *
 * A call that fails after others landed: the batch is undone (DELETE /api/entries/batch/{id})
 * and the folders made for it are removed, so a failed import leaves nothing; the message
 * says so, or says what could not be undone.
 */
export async function runImport(input: {
  vaultKey: CryptoKey;
  plan: ImportPlan;
  all: DuplicateChoice;
  own: ReadonlyMap<number, DuplicateChoice>;
  folders: readonly OpenFolder[];
  onProgress: (progress: ImportProgress) => void;
  /** The tab's integrity queue (decision 0053): every call carries the vault state after it. */
  integrity?: VaultIntegrity | null;
  /** Where the items' files are uploaded: this page's attachment calls unless a test hands its own. */
  attachments?: AttachmentPlatform;
}): Promise<ImportOutcome> {
  const { vaultKey, plan, all, own, integrity } = input;
  const toCreate: PlannedItem[] = [];
  const toUpdate: PlannedItem[] = [];
  for (const planned of plan.items) {
    const choice = choiceFor(planned, all, own);
    if (choice === 'skip') continue;
    (choice === 'update' ? toUpdate : toCreate).push(planned);
  }
  const fileCount = [...toCreate, ...toUpdate].reduce((sum, p) => sum + (p.item.attachments?.length ?? 0), 0);
  const total = 2 * toCreate.length + toUpdate.length + fileCount;
  let sealedCount = 0;
  let storedCount = 0;
  let fileSteps = 0;
  const report = () => input.onProgress({ done: sealedCount + storedCount + fileSteps, total });
  report();

  const batchId = crypto.randomUUID();
  const paths = new Set([...toCreate, ...toUpdate].map((p) => p.folder).filter((path) => path !== null));
  let folderIds: Map<string, string>;
  let createdFolders: OpenFolder[];
  try {
    ({ ids: folderIds, created: createdFolders } = await ensureFolders(vaultKey, paths, input.folders, integrity));
  } catch (error) {
    return {
      ok: false,
      message: `Nothing was imported: the folders could not be created (${reason(error)}).`,
      batchId,
      stranded: 0,
      strandedIds: [],
    };
  }

  let landed = 0;
  const landedIds: string[] = [];
  const targets: AttachTarget[] = [];
  /** What each item with listed files was saved with, and at which revision: for a save without a file that failed. */
  const listedSaves = new Map<string, { draft: EntryDraft; revision: number }>();
  try {
    const sending = toCreate.map((planned) => filesToSend(planned.item.attachments ?? [], []));
    const { bodies, drafts } = await sealAll(vaultKey, toCreate, sending, folderIds, (count) => {
      sealedCount += count;
      report();
    });
    bodies.forEach((body, i) => {
      targets.push(attachTarget(body.id, toCreate[i]!, sending[i]!));
      if (sending[i]!.refs.length > 0) listedSaves.set(body.id, { draft: drafts.get(body.id)!, revision: 1 });
    });
    const names = new Map(bodies.map((body, i) => [body.id, toCreate[i]!.draft.serviceName]));
    for (const chunk of chunkEntries(bodies)) {
      const addEntries = chunk.map((body) => ({ member: writtenEntryMember(body, 1), name: names.get(body.id) ?? '' }));
      landed += await writeThrough(
        integrity,
        () => ({ addEntries }),
        (state) => addEntryBatch(batchId, chunk, state),
      );
      landedIds.push(...chunk.map((body) => body.id));
      storedCount += chunk.length;
      report();
    }
  } catch (error) {
    const { message, stranded } = await rollBack(batchId, landed, landedIds, createdFolders, reason(error), integrity);
    return { ok: false, message, batchId, stranded, strandedIds: stranded > 0 ? landedIds : [] };
  }

  const updateFailures: Array<{ name: string; message: string }> = [];
  let updated = 0;
  for (const planned of toUpdate) {
    const existing = planned.duplicateOf!;
    const folderId = planned.folder === null ? existing.folderId : (folderIds.get(planned.folder) ?? existing.folderId);
    const imported = { ...planned.draft, folderId, tags: normaliseTags([...existing.tags, ...planned.draft.tags]) };
    const attachments = planned.item.attachments ?? [];
    // An item that lists its files gets the new ones listed in this save; one that never did is sent them as before.
    const sent = existing.files === undefined ? null : filesToSend(attachments, existing.files);
    const draft = updateDraftWithFiles(imported, existing, sent ?? { files: [], ids: [], refs: [] });
    try {
      const sealed = await sealEntry(vaultKey, existing.id, draft);
      const request = toUpdateRequest(sealed, existing.revision);
      const replaceEntries = [{ member: writtenEntryMember(sealed, existing.revision + 1), name: draft.serviceName }];
      await writeThrough(
        integrity,
        () => ({ replaceEntries }),
        (state) => api.call('update-entry', { params: { id: existing.id }, body: request, headers: vaultStateHeaders(state) }),
      );
      updated += 1;
      if (sent === null) targets.push({ entryId: existing.id, itemName: draft.serviceName, files: attachments, existing: true });
      else targets.push({ entryId: existing.id, itemName: draft.serviceName, files: sent.files, ids: sent.ids, existing: false });
      if (sent !== null && sent.refs.length > 0) listedSaves.set(existing.id, { draft, revision: existing.revision + 1 });
    } catch (error) {
      updateFailures.push({ name: existing.serviceName, message: reason(error) });
    }
    storedCount += 1;
    report();
  }
  // The items exist now: their files follow, each sealed and uploaded on its own.
  const files = await attachImportedFiles(input.attachments ?? pageAttachmentPlatform, vaultKey, targets, () => {
    fileSteps += 1;
    report();
  });
  await unlistFailedFiles(vaultKey, files.failedIds, listedSaves, integrity);
  return { ok: true, batchId, created: landed, createdIds: landedIds, updated, updateFailures, folders: createdFolders, files };
}

function attachTarget(entryId: string, planned: PlannedItem, sending: FilesToSend): AttachTarget {
  return { entryId, itemName: planned.draft.serviceName, files: sending.files, ids: sending.ids, existing: false };
}

/**
 * Saves each item again without the listed files that did not go up (a limit, a refusal), so
 * it never lists a file the server does not hold. Best effort: the outcome already names each
 * file that failed, and an item that cannot be saved again shows the file as missing.
 */
async function unlistFailedFiles(
  vaultKey: CryptoKey,
  failedIds: ReadonlyMap<string, ReadonlySet<string>>,
  listedSaves: ReadonlyMap<string, { draft: EntryDraft; revision: number }>,
  integrity: VaultIntegrity | null | undefined,
): Promise<void> {
  for (const [id, failed] of failedIds) {
    const saved = listedSaves.get(id);
    if (!saved) continue;
    const draft = withoutFiles(saved.draft, failed);
    try {
      const sealed = await sealEntry(vaultKey, id, draft);
      const replaceEntries = [{ member: writtenEntryMember(sealed, saved.revision + 1), name: draft.serviceName }];
      await writeThrough(
        integrity,
        () => ({ replaceEntries }),
        (state) =>
          api.call('update-entry', {
            params: { id },
            body: toUpdateRequest(sealed, saved.revision),
            headers: vaultStateHeaders(state),
          }),
      );
    } catch {
      // Named in the outcome already; the item view says the file is missing.
    }
  }
}

function reason(error: unknown): string {
  return serverMessageOf(error) ?? (error instanceof Error ? error.message : 'an unexpected error');
}

/** Undoes what landed of a failed import; the sentence says what happened. */
async function rollBack(
  batchId: string,
  landed: number,
  landedIds: readonly string[],
  folders: readonly OpenFolder[],
  why: string,
  integrity: VaultIntegrity | null | undefined,
): Promise<{ message: string; stranded: number }> {
  let undone = landed === 0;
  if (!undone) {
    try {
      const trashedAt = Date.now();
      await writeThrough(
        integrity,
        () => ({ undoImport: { ids: landedIds, trashedAt } }),
        (state) => undoImport(batchId, state, trashedAt),
      );
      undone = true;
    } catch {
      undone = false;
    }
  }
  for (const folder of undone ? folders : []) {
    try {
      await writeThrough(
        integrity,
        () => ({ removeFolders: [folder.id] }),
        (state) =>
          api.call('delete-folder', {
            params: { id: folder.id },
            query: { revision: folder.revision },
            headers: vaultStateHeaders(state),
          }),
      );
    } catch {
      // An empty folder left behind is harmless; the message below is about items.
    }
  }
  const sentence = /[.!?]$/.test(why) ? why : `${why}.`;
  if (landed === 0) return { message: `Nothing was imported: ${sentence}`, stranded: 0 };
  if (undone) {
    return {
      message: `Nothing was imported: ${sentence} The ${landed} items saved before the failure were removed again.`,
      stranded: 0,
    };
  }
  return {
    message: `The import failed: ${sentence} ${landed} items were saved before the failure and could not be removed yet: undo this import under "Recent imports".`,
    stranded: landed,
  };
}
