import { useId, useState, type InputHTMLAttributes } from 'react';
import { useAppRunning } from '@/lib/use-app-running';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> & { label: string };

/** A labelled password field with a show/hide toggle (the toggle never submits the form). */
export function PasswordInput({ label, className, readOnly, ...input }: Props) {
  const id = useId();
  const running = useAppRunning();
  const [visible, setVisible] = useState(false);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-300">
        {label}
      </label>
      <div className="relative">
        <input
          {...input}
          // Read-only until the app runs (prerendered page): what is typed before would not reach it.
          readOnly={readOnly === true || !running}
          id={id}
          type={visible ? 'text' : 'password'}
          className={`w-full rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 pr-16 text-white outline-none focus:border-cyan-400 ${className ?? ''}`}
        />
        <button
          type="button"
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          // Not before the app runs: a click on a prerendered page would reach no handler.
          disabled={!running}
          onClick={() => setVisible((v) => !v)}
          className="absolute inset-y-0 right-2 my-auto h-7 rounded px-2 text-xs font-medium text-cyan-300 hover:text-cyan-200"
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}
