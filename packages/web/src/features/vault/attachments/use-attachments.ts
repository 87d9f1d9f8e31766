import { useEffect, useState } from 'react';
import { DOCUMENT_LIMITS, type FileRef } from '@lockit/contract';
import {
  ApiError,
  attachmentIdOf,
  deleteAttachment,
  downloadAttachment,
  filesInHistory,
  itemFilesOf,
  listAttachments,
  refOf,
  refsOfServed,
  renameAttachment,
  uploadAttachment,
  type ActionResult,
  type AttachmentList,
  type AttachmentPlatform,
  type AttachmentSource,
  type ItemFile,
  type ItemFiles,
  type ListedAttachment,
  type OpenedAttachment,
} from '@lockit/client-core';
import { attachmentRoomProblem } from './attachment-room';

export type AttachmentsState =
  { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; list: AttachmentList; item: ItemFiles };

/**
 * Saves the item with its file list changed; `served` starts the list of an item that never had
 * one; `deletedForGood` names a file the item remembers as deleted for good.
 */
export type SetFiles = (
  change: (files: FileRef[]) => FileRef[],
  served: readonly FileRef[],
  deletedForGood?: string,
) => Promise<ActionResult>;

/** What is under way: an upload's or a download's progress, by file name. */
export interface Transfer {
  kind: 'upload' | 'download';
  name: string;
  done: number;
  total: number;
}

/** A person-readable sentence for a failure (the server's own message when it sent one). */
export function failureText(error: unknown): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Try again.';
}

/**
 * The files of one entry and what can be done with them. The item lists its files (decision
 * 0084): what the server serves is checked against that list (itemFilesOf), and every add,
 * rename and delete saves the item with its list changed. Every failure lands in `error`, in
 * words a person can act on (a limit, a lying server, no network); nothing is half-done: a
 * download is kept only once every chunk passed its check, and a file whose item could not be
 * saved with it is deleted again.
 */
export function useAttachments(
  platform: AttachmentPlatform,
  vaultKey: CryptoKey,
  entryId: string,
  listed: readonly FileRef[] | undefined,
  /** Ids of the files the item says were deleted for good. */
  deletedFiles: readonly string[] | undefined,
  setFiles: SetFiles,
  keyEpoch?: number | undefined,
  /** Ids of the files the item's earlier versions list; its history through the client core by default. */
  historyIds?: () => Promise<Set<string>>,
) {
  const [state, setState] = useState<AttachmentsState>({ status: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const [transfer, setTransfer] = useState<Transfer | null>(null);

  // Bumped after every change: the effect below lists the files again.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((current) => current + 1);

  // The files are listed again when the item's list changes (a save here, or a change made on
  // another device arriving with the item), and checked against the list they were fetched
  // for, so a file just removed never shows for a moment as one the item does not list.
  const listedKey = listed === undefined ? '' : JSON.stringify([listed, deletedFiles ?? []]);
  useEffect(() => {
    let live = true;
    const [refs, deleted] = listedKey === '' ? [undefined, []] : (JSON.parse(listedKey) as [FileRef[], string[]]);
    const load = async (): Promise<AttachmentsState> => {
      const list = await listAttachments(platform, vaultKey, entryId);
      const ids = new Set(refs?.map((ref) => ref.id.toLowerCase()));
      const strangers = refs !== undefined && list.files.some((file) => !ids.has(attachmentIdOf(file)));
      // Only a file the item does not list needs the history: one of its versions may list it.
      const history = historyIds ?? (() => filesInHistory(platform.api, vaultKey, entryId));
      const inHistory = strangers ? await history().catch(() => new Set<string>()) : undefined;
      return { status: 'ready', list, item: itemFilesOf(refs, list.files, inHistory, deleted) };
    };
    load().then(
      (ready) => live && setState(ready),
      (failure: unknown) => live && setState({ status: 'failed', message: failureText(failure) }),
    );
    return () => {
      live = false;
    };
  }, [platform, vaultKey, entryId, version, listedKey, historyIds]);

  /** The list an item that never listed its files starts from: every served file that opens. */
  const servedRefs = () => (state.status === 'ready' ? refsOfServed(state.list.files) : []);

  const add = async (source: AttachmentSource) => {
    setError(null);
    // The limits the server answered with the list: a file past them is refused before it is read.
    const usage = state.status === 'ready' ? state.list.usage : null;
    const full = (listed?.length ?? 0) >= DOCUMENT_LIMITS.files && `An item can have at most ${DOCUMENT_LIMITS.files} files.`;
    const problem = full || (usage && attachmentRoomProblem(usage, source.name, source.size));
    if (problem) {
      setError(problem);
      return;
    }
    setTransfer({ kind: 'upload', name: source.name, done: 0, total: source.size });
    try {
      const file = await uploadAttachment(platform, vaultKey, entryId, source, {
        onProgress: (done, total) => setTransfer({ kind: 'upload', name: source.name, done, total }),
        keyEpoch,
      });
      const saved = await setFiles((files) => [...files, refOf(file)], servedRefs());
      if (!saved.ok) {
        // A file the item does not list would read as one the server brought back: it goes.
        await deleteAttachment(platform, file).catch(() => undefined);
        setError(`${source.name} was not attached: ${saved.message}`);
      }
      reload();
    } catch (failure) {
      setError(`${source.name} was not attached: ${failureText(failure)}`);
    } finally {
      setTransfer(null);
    }
  };

  /** The file's bytes, every chunk checked, as one Blob; null (with `error` set) when anything failed. */
  const download = async (file: OpenedAttachment): Promise<Blob | null> => {
    setError(null);
    setTransfer({ kind: 'download', name: file.name, done: 0, total: file.size });
    const pieces: Uint8Array<ArrayBuffer>[] = [];
    try {
      for await (const piece of downloadAttachment(platform, file, (done, total) =>
        setTransfer({ kind: 'download', name: file.name, done, total }),
      )) {
        pieces.push(piece as Uint8Array<ArrayBuffer>);
      }
      return new Blob(pieces, { type: file.type || 'application/octet-stream' });
    } catch (failure) {
      // What arrived before the failure is not the file: dropped with `pieces`.
      setError(`${file.name} was not downloaded: ${failureText(failure)}`);
      return null;
    } finally {
      setTransfer(null);
    }
  };

  const rename = async (file: OpenedAttachment, name: string): Promise<boolean> => {
    setError(null);
    try {
      const saved = await setFiles(
        (files) => files.map((listedFile) => (listedFile.id === file.ids.fileId ? { ...listedFile, name } : listedFile)),
        servedRefs(),
      );
      if (!saved.ok) {
        setError(saved.message);
        return false;
      }
      // The item's list decides the name; the file's own sealed name follows, for the backup and a shared copy.
      await renameAttachment(platform, file, name).catch(() => undefined);
      reload();
      return true;
    } catch (failure) {
      setError(failureText(failure));
      return false;
    }
  };

  /**
   * Delete on a file of the item: the item is saved without it. A file the item listed stays on
   * the server for the version before, which lists it (restoring that version brings it back);
   * every other one (a file of an item that never listed its files, a damaged, missing or
   * unlisted one, or one kept only for earlier versions) is deleted for good.
   */
  const remove = async (file: ItemFile | ListedAttachment): Promise<boolean> => {
    setError(null);
    try {
      const ids = file.kind === 'file' ? file.ids : { itemId: entryId.toLowerCase(), fileId: file.id.toLowerCase() };
      const id = ids.fileId;
      const inList = listed === undefined ? servedRefs() : listed;
      if (inList.some((ref) => ref.id.toLowerCase() === id)) {
        const saved = await setFiles((files) => files.filter((listedFile) => listedFile.id.toLowerCase() !== id), servedRefs());
        if (!saved.ok) {
          setError(saved.message);
          return false;
        }
      }
      // A file kept for earlier versions is deleted for good: the item remembers it, so the
      // server cannot bring it back as one still kept for them.
      const wasKept = state.status === 'ready' && state.item.kept.some((kept) => kept.ids.fileId.toLowerCase() === id);
      if (wasKept) {
        const saved = await setFiles((files) => files, servedRefs(), id);
        if (!saved.ok) {
          setError(saved.message);
          return false;
        }
      }
      const keptForHistory = listed !== undefined && file.kind === 'file' && listed.some((ref) => ref.id.toLowerCase() === id);
      // A listed file the server did not serve has nothing left to delete there.
      if (!keptForHistory)
        await deleteAttachment(platform, { ids }).catch((failure: unknown) => {
          if (!(failure instanceof ApiError && failure.status === 404)) throw failure;
        });
      reload();
      return true;
    } catch (failure) {
      setError(failureText(failure));
      return false;
    }
  };

  /** A served file the item does not list, kept at the person's word: the item lists it from now on. */
  const keep = async (file: OpenedAttachment): Promise<void> => {
    setError(null);
    const saved = await setFiles((files) => [...files, refOf(file)], servedRefs());
    if (!saved.ok) setError(saved.message);
  };

  return { state, error, transfer, add, download, rename, remove, keep };
}
