import { useRef, useState } from 'react';
import type { FileRef } from '@lockit/contract';
import type { AttachmentPlatform, ItemFile, ListedAttachment, OpenedAttachment } from '@lockit/client-core';
import { buttonSecondary } from '@/components/ui/styles';
import { ConfirmDialog } from '../components/confirm-dialog';
import { fileSource, pageAttachmentPlatform } from './attachment-platform';
import { formatSize } from './format-size';
import { RenameAttachmentDialog } from './rename-attachment-dialog';
import { saveFile } from './save-file';
import { KeptFiles, UnlistedFiles } from './unlisted-files';
import { useAttachments, type SetFiles } from './use-attachments';

interface Props {
  entryId: string;
  /** The files the item lists (undefined: it never listed them, and the served ones are shown). */
  listed: readonly FileRef[] | undefined;
  /** Ids of the files the item says were deleted for good. */
  deletedFiles?: readonly string[] | undefined;
  /** Saves the item with its file list changed. */
  setFiles: SetFiles;
  vaultKey: CryptoKey;
  /** The vault key's epoch, sent with each new file so a key rotated meanwhile refuses it. */
  keyEpoch?: number | undefined;
  /** In Trash: files are listed and can be downloaded, but none is added, renamed or deleted. */
  trashed: boolean;
  /** Tests hand in their own; the page's by default. */
  platform?: AttachmentPlatform;
  /** Where a checked download goes; the browser's downloads by default. */
  save?: (blob: Blob, name: string) => void;
  /** Ids of the files the item's earlier versions list (tests hand in their own). */
  historyIds?: () => Promise<Set<string>>;
  /** Shares a file by link (the item's Share form); no Share button without it. */
  onShare?: ((file: OpenedAttachment) => void) | undefined;
}

const small = `${buttonSecondary} !px-2 !py-1 text-xs`;
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * The item view's files: each one's name, size and date, with Download, Rename and Delete, and
 * Add file (the browser's file picker). Names are sealed; a file the server changed shows as
 * damaged with why, and can only be deleted; a file the item lists that the server did not
 * serve is named as missing, and a served file the item does not list is shown apart.
 */
export function AttachmentsSection({
  entryId,
  listed,
  deletedFiles,
  setFiles,
  vaultKey,
  keyEpoch,
  trashed,
  platform = pageAttachmentPlatform,
  save = saveFile,
  historyIds,
  onShare,
}: Props) {
  const files = useAttachments(platform, vaultKey, entryId, listed, deletedFiles, setFiles, keyEpoch, historyIds);
  const picker = useRef<HTMLInputElement>(null);
  const [renaming, setRenaming] = useState<OpenedAttachment | null>(null);
  const [deleting, setDeleting] = useState<ItemFile | ListedAttachment | null>(null);
  const { state, transfer } = files;
  const busy = transfer !== null;

  const download = async (file: OpenedAttachment) => {
    const blob = await files.download(file);
    if (blob) save(blob, file.name);
  };

  /** A file the item lists and the server serves: deleting it keeps it for the version before. */
  const keptAfterDelete = (file: ItemFile | ListedAttachment) =>
    file.kind === 'file' && listed?.some((ref) => ref.id.toLowerCase() === file.ids.fileId.toLowerCase()) === true;

  return (
    <section aria-label="Files" className="flex flex-col gap-2 rounded-xl border border-slate-800 bg-slate-900/60 p-3">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-200">Files</h3>
        {!trashed && (
          <>
            <button
              type="button"
              className={small}
              disabled={busy || state.status !== 'ready'}
              onClick={() => picker.current?.click()}
            >
              Add file
            </button>
            <input
              ref={picker}
              type="file"
              className="hidden"
              aria-label="Choose a file to attach"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void files.add(fileSource(file));
              }}
            />
          </>
        )}
      </div>

      {state.status === 'loading' && <p className="text-sm text-slate-400">Loading files…</p>}
      {state.status === 'failed' && <p className="text-sm text-red-300">The files could not be listed: {state.message}</p>}
      {state.status === 'ready' && state.item.files.length === 0 && <p className="text-sm text-slate-400">No files attached.</p>}
      {state.status === 'ready' && state.item.files.length > 0 && (
        <ul aria-label="Attached files" className="flex flex-col divide-y divide-slate-800">
          {state.item.files.map((file) =>
            file.kind === 'file' ? (
              <li key={file.ids.fileId} aria-label={file.name} className="flex flex-col gap-2 py-2">
                <div className="min-w-0">
                  <p className="text-sm break-words text-white">{file.name}</p>
                  <p className="text-xs text-slate-400">
                    {formatSize(file.size)} ·{' '}
                    <time dateTime={new Date(file.createdAt).toISOString()}>{dateFormat.format(file.createdAt)}</time>
                  </p>
                </div>
                <div className="flex flex-wrap gap-1">
                  <button
                    type="button"
                    className={small}
                    disabled={busy}
                    onClick={() => void download(file)}
                    aria-label={`Download ${file.name}`}
                  >
                    Download
                  </button>
                  {onShare && (
                    <button
                      type="button"
                      className={small}
                      disabled={busy}
                      onClick={() => onShare(file)}
                      aria-label={`Share ${file.name}`}
                    >
                      Share
                    </button>
                  )}
                  {!trashed && (
                    <>
                      <button
                        type="button"
                        className={small}
                        disabled={busy}
                        onClick={() => setRenaming(file)}
                        aria-label={`Rename ${file.name}`}
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        className={small}
                        disabled={busy}
                        onClick={() => setDeleting(file)}
                        aria-label={`Delete ${file.name}`}
                      >
                        Delete
                      </button>
                    </>
                  )}
                </div>
              </li>
            ) : (
              <li
                key={file.id}
                aria-label={file.kind === 'missing' ? `Missing file ${file.name}` : 'Damaged file'}
                className="flex flex-wrap items-center gap-2 py-2"
              >
                <p role={file.kind === 'missing' ? 'alert' : undefined} className="min-w-0 flex-1 text-sm text-amber-200">
                  {file.kind === 'missing'
                    ? `Missing file: ${file.name} (${formatSize(file.size)}). ${file.problem}`
                    : `Damaged file: ${file.problem}`}
                </p>
                {!trashed && (
                  <button
                    type="button"
                    className={small}
                    disabled={busy}
                    onClick={() => setDeleting(file)}
                    aria-label={file.kind === 'missing' ? `Delete missing file ${file.name}` : 'Delete damaged file'}
                  >
                    Delete
                  </button>
                )}
              </li>
            ),
          )}
        </ul>
      )}

      {state.status === 'ready' && state.item.kept.length > 0 && (
        <KeptFiles files={state.item.kept} busy={busy} trashed={trashed} onDelete={setDeleting} />
      )}
      {state.status === 'ready' && state.item.unlisted.length > 0 && (
        <UnlistedFiles
          files={state.item.unlisted}
          busy={busy}
          trashed={trashed}
          onKeep={(file) => void files.keep(file)}
          onDelete={setDeleting}
        />
      )}

      {transfer && (
        <p role="status" className="text-xs text-slate-300">
          {transfer.kind === 'upload' ? 'Encrypting and uploading' : 'Downloading and checking'} {transfer.name}:{' '}
          {transfer.total === 0 ? 100 : Math.floor((transfer.done / transfer.total) * 100)}%
        </p>
      )}
      {files.error && (
        <p role="alert" className="rounded-lg border border-red-500/50 bg-red-950/60 px-3 py-2 text-sm text-red-100">
          {files.error}
        </p>
      )}

      {renaming && (
        <RenameAttachmentDialog
          name={renaming.name}
          onRename={(name) => files.rename(renaming, name)}
          onClose={() => setRenaming(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete file"
          message={
            deleting.kind === 'damaged'
              ? 'Delete this damaged file for good? It cannot be brought back.'
              : keptAfterDelete(deleting)
                ? `Delete ${deleting.name} from this item? The item's earlier versions keep it, so restoring one brings it back, until you delete it for good.`
                : `Delete ${deleting.name} for good? It cannot be brought back, not even with an earlier version of the item.`
          }
          confirmLabel="Delete"
          onConfirm={async () => {
            if (await files.remove(deleting)) setDeleting(null);
          }}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
