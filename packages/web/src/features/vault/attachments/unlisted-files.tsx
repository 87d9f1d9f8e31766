import type { ListedAttachment, OpenedAttachment } from '@lockit/client-core';
import { buttonSecondary } from '@/components/ui/styles';
import { formatSize } from './format-size';

interface Props {
  files: readonly ListedAttachment[];
  busy: boolean;
  trashed: boolean;
  onKeep: (file: OpenedAttachment) => void;
  onDelete: (file: ListedAttachment) => void;
}

const small = `${buttonSecondary} !px-2 !py-1 text-xs`;

/**
 * Files the item no longer lists that an earlier version of it does (decision 0084): kept so
 * that restoring that version brings them back, until the person deletes them for good.
 */
export function KeptFiles({
  files,
  busy,
  trashed,
  onDelete,
}: {
  files: readonly OpenedAttachment[];
  busy: boolean;
  trashed: boolean;
  onDelete: (file: OpenedAttachment) => void;
}) {
  return (
    <div aria-label="Files kept for earlier versions" className="rounded-lg border border-slate-800 p-3">
      <p className="text-xs text-slate-400">Kept for earlier versions of this item (restoring one brings them back):</p>
      <ul className="mt-2 flex flex-col gap-1">
        {files.map((file) => (
          <li key={file.ids.fileId} className="flex flex-wrap items-center gap-2">
            <span className="min-w-0 flex-1 text-sm break-words text-slate-300">
              {file.name} ({formatSize(file.size)})
            </span>
            {!trashed && (
              <button
                type="button"
                className={small}
                disabled={busy}
                onClick={() => onDelete(file)}
                aria-label={`Delete ${file.name} for good`}
              >
                Delete for good
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Files the server serves for this item that neither the item nor its history lists (decision 0084): a file
 * deleted here and brought back by the server looks like this, and so does an upload that
 * stopped before the item was saved with it. They are never shown as the item's files; the
 * person keeps a file they know, or deletes it.
 */
export function UnlistedFiles({ files, busy, trashed, onKeep, onDelete }: Props) {
  return (
    <div
      role="alert"
      aria-label="Files the item does not list"
      className="rounded-lg border border-amber-700 bg-amber-950/40 p-3"
    >
      <p className="text-sm text-amber-100">
        The server holds {files.length === 1 ? 'a file' : `${files.length} files`} for this item that neither the item nor its
        history lists. A file deleted here and brought back by the server looks like this, and so does an upload that stopped
        before the item was saved. Keep only a file you know.
      </p>
      <ul className="mt-2 flex flex-col gap-1">
        {files.map((file) => {
          const id = file.kind === 'file' ? file.ids.fileId : file.id;
          const label = file.kind === 'file' ? `${file.name} (${formatSize(file.size)})` : 'A damaged file';
          return (
            <li key={id} className="flex flex-wrap items-center gap-2">
              <span className="min-w-0 flex-1 text-sm break-words text-amber-100">{label}</span>
              {!trashed && file.kind === 'file' && (
                <button
                  type="button"
                  className={small}
                  disabled={busy}
                  onClick={() => onKeep(file)}
                  aria-label={`Keep ${file.name}`}
                >
                  Keep
                </button>
              )}
              {!trashed && (
                <button
                  type="button"
                  className={small}
                  disabled={busy}
                  onClick={() => onDelete(file)}
                  aria-label={file.kind === 'file' ? `Delete unlisted ${file.name}` : 'Delete unlisted damaged file'}
                >
                  Delete
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
