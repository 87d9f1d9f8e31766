import { useState } from 'react';
import type { AttachmentPlatform } from '@lockit/client-core';
import { sealedAttachmentSize, ShareOpenError, type SharedFile } from '@lockit/crypto';
import { buttonPrimary } from '@/components/ui/styles';
import { serverMessageOf } from '@/lib/api-errors';
import { pageAttachmentPlatform } from '../attachments/attachment-platform';
import { formatSize } from '../attachments/format-size';
import { saveFile } from '../attachments/save-file';
import { downloadSharedFile } from './share-file-transfer';
import { blobSink, pickerSink, type FileSink } from './shared-file-save';

interface Props {
  id: string;
  file: SharedFile;
  shareKey: CryptoKey;
  /** What the opening answered for the file: its sealed size and the ticket that fetches it. */
  served: { size: number; ticket: string } | undefined;
  platform?: Pick<AttachmentPlatform, 'binary' | 'baseUrl' | 'api'>;
  /** Where a checked file goes when there is no save picker; the browser's downloads by default. */
  save?: (blob: Blob, name: string) => void;
  /** Tests choose; the browser's save picker where it has one by default. */
  usePicker?: boolean;
}

/**
 * A shared file, opened: its name and size (both from the sealed share, never from the server)
 * and Download, which fetches it with the opening's ticket and checks it chunk by chunk as it
 * arrives. A file that fails a check, or arrives cut short, is refused with a plain message and
 * nothing of it is saved.
 */
export function SharedFileView({
  id,
  file,
  shareKey,
  served,
  platform = pageAttachmentPlatform,
  save = saveFile,
  usePicker = true,
}: Props) {
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const changed = served !== undefined && served.size !== sealedAttachmentSize(file.size);
  const download = async () => {
    if (!served) return;
    setProblem(null);
    const picked = usePicker ? await pickerSink(file.name) : { sink: null, cancelled: false };
    if (picked.cancelled) return;
    const sink: FileSink = picked.sink ?? blobSink(file.name, file.type, save);
    setProgress(0);
    try {
      const pieces = downloadSharedFile(platform, { id, key: shareKey, size: file.size, ticket: served.ticket }, (done, total) =>
        setProgress(total === 0 ? 100 : Math.floor((done / total) * 100)),
      );
      for await (const piece of pieces) await sink.write(piece);
      await sink.finish();
      setSaved(true);
    } catch (error) {
      await sink.abort();
      setProblem(
        error instanceof ShareOpenError
          ? error.message
          : (serverMessageOf(error) ?? 'The download broke off, so nothing was saved. Try again if the link allows.'),
      );
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className="flex flex-col gap-3 text-slate-200">
      <dl className="flex flex-col divide-y divide-slate-800 rounded-xl border border-slate-800">
        <div className="flex flex-col gap-1 p-3">
          <dt className="text-xs text-slate-400">File</dt>
          <dd className="text-sm break-words text-slate-100">{file.name}</dd>
        </div>
        <div className="flex flex-col gap-1 p-3">
          <dt className="text-xs text-slate-400">Size</dt>
          <dd className="text-sm text-slate-100">{formatSize(file.size)}</dd>
        </div>
      </dl>
      {served === undefined || changed ? (
        <p role="alert" className="rounded-lg border border-amber-700 bg-amber-950/40 p-3 text-sm text-amber-100">
          The server did not send this file as it was shared. Nothing was saved.
        </p>
      ) : (
        <button type="button" className={buttonPrimary} disabled={progress !== null} onClick={() => void download()}>
          {progress === null ? 'Download' : `Downloading and checking… ${progress}%`}
        </button>
      )}
      {saved && problem === null && (
        <p role="status" className="text-sm text-emerald-300">
          Downloaded and checked: the file is exactly what was shared.
        </p>
      )}
      {problem && (
        <p role="alert" className="rounded-lg border border-amber-700 bg-amber-950/40 p-3 text-sm text-amber-100">
          {problem}
        </p>
      )}
    </div>
  );
}
