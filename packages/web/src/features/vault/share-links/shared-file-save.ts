/** Where a checked shared file goes: written as it is checked (a save picker), or kept and handed over at the end. */
export interface FileSink {
  write(piece: Uint8Array): Promise<void>;
  /** Every piece checked: the file is saved. */
  finish(): Promise<void>;
  /** A check failed or the download broke: nothing of it is saved. */
  abort(): Promise<void>;
}

interface WritableFile {
  write(data: Uint8Array<ArrayBuffer>): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}
type SavePicker = (options: { suggestedName: string }) => Promise<{ createWritable(): Promise<WritableFile> }>;

/**
 * A sink that streams to disk where the browser has a save picker (Chromium's File System
 * Access): its writable keeps what is written in a temporary file that becomes the chosen file
 * only on close, and abort throws it away, so a file refused halfway is never saved as data.
 * Null where there is none, or when the person cancels the picker (then `blobSink` is not used
 * either: null with `cancelled` true).
 */
export async function pickerSink(name: string): Promise<{ sink: FileSink | null; cancelled: boolean }> {
  const picker = (globalThis as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (typeof picker !== 'function') return { sink: null, cancelled: false };
  let writable: WritableFile;
  try {
    writable = await (await picker({ suggestedName: name })).createWritable();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return { sink: null, cancelled: true };
    return { sink: null, cancelled: false };
  }
  return {
    cancelled: false,
    sink: {
      write: (piece) => writable.write(piece as Uint8Array<ArrayBuffer>),
      finish: () => writable.close(),
      abort: () => writable.abort().catch(() => undefined),
    },
  };
}

/**
 * A sink that keeps the checked pieces (the browser may keep a large Blob's parts on disk) and
 * hands the file to the downloads only once every piece was checked; abort drops them.
 */
export function blobSink(name: string, type: string, save: (blob: Blob, name: string) => void): FileSink {
  let parts: Uint8Array<ArrayBuffer>[] = [];
  return {
    write: async (piece) => {
      parts.push(piece as Uint8Array<ArrayBuffer>);
    },
    finish: async () => {
      save(new Blob(parts, { type: type || 'application/octet-stream' }), name);
      parts = [];
    },
    abort: async () => {
      parts = [];
    },
  };
}
