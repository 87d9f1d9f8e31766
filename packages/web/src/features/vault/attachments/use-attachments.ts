import { useEffect, useState } from 'react';
import {
  ApiError,
  deleteAttachment,
  downloadAttachment,
  listAttachments,
  renameAttachment,
  uploadAttachment,
  type AttachmentList,
  type AttachmentPlatform,
  type AttachmentSource,
  type OpenedAttachment,
} from '@lockit/client-core';
import { attachmentRoomProblem } from './attachment-room';

export type AttachmentsState =
  { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; list: AttachmentList };

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
 * The files of one entry and what can be done with them. Every failure lands in `error`,
 * in words a person can act on (a limit, a lying server, no network); nothing is half-done:
 * a download is kept only once every chunk passed its check.
 */
export function useAttachments(
  platform: AttachmentPlatform,
  vaultKey: CryptoKey,
  entryId: string,
  keyEpoch?: number | undefined,
) {
  const [state, setState] = useState<AttachmentsState>({ status: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const [transfer, setTransfer] = useState<Transfer | null>(null);

  // Bumped after every change: the effect below lists the files again.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((current) => current + 1);

  useEffect(() => {
    let live = true;
    listAttachments(platform, vaultKey, entryId).then(
      (list) => live && setState({ status: 'ready', list }),
      (failure: unknown) => live && setState({ status: 'failed', message: failureText(failure) }),
    );
    return () => {
      live = false;
    };
  }, [platform, vaultKey, entryId, version]);

  const add = async (source: AttachmentSource) => {
    setError(null);
    // The limits the server answered with the list: a file past them is refused before it is read.
    const usage = state.status === 'ready' ? state.list.usage : null;
    const problem = usage && attachmentRoomProblem(usage, source.name, source.size);
    if (problem) {
      setError(problem);
      return;
    }
    setTransfer({ kind: 'upload', name: source.name, done: 0, total: source.size });
    try {
      await uploadAttachment(platform, vaultKey, entryId, source, {
        onProgress: (done, total) => setTransfer({ kind: 'upload', name: source.name, done, total }),
        keyEpoch,
      });
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
      await renameAttachment(platform, file, name);
      reload();
      return true;
    } catch (failure) {
      setError(failureText(failure));
      return false;
    }
  };

  const remove = async (file: { ids: OpenedAttachment['ids'] } & { name: string }): Promise<boolean> => {
    setError(null);
    try {
      await deleteAttachment(platform, file);
      reload();
      return true;
    } catch (failure) {
      setError(failureText(failure));
      return false;
    }
  };

  return { state, error, transfer, add, download, rename, remove };
}
