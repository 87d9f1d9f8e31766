import { useId, useState, type DragEvent } from 'react';

/**
 * Pick or drop one file. It is read here, in the browser; nothing of it is sent anywhere.
 */
export function FilePicker({ onFile, disabled }: { onFile: (file: File) => void; disabled?: boolean }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };
  return (
    <div
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed p-8 text-center ${
        over ? 'border-cyan-400 bg-slate-800/60' : 'border-slate-600 bg-slate-900/60'
      }`}
    >
      <p className="text-slate-200">Drop an export file here, or</p>
      <label
        htmlFor={id}
        className="inline-flex cursor-pointer items-center justify-center rounded-lg border border-slate-600 px-5 py-2.5 font-semibold text-slate-100 transition hover:bg-slate-800 focus-within:outline focus-within:outline-2 focus-within:outline-cyan-400"
      >
        Choose a file
        <input
          id={id}
          type="file"
          className="sr-only"
          disabled={disabled}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) onFile(file);
            event.target.value = '';
          }}
        />
      </label>
      <p className="text-sm text-slate-400">
        The file is opened in this browser. Items are encrypted before anything is sent to the server.
      </p>
    </div>
  );
}
