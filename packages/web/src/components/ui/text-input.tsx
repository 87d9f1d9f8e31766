import { useId, type InputHTMLAttributes } from 'react';
import { useAppRunning } from '@/lib/use-app-running';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { label: string };

/** A labelled text field in the app's style. */
export function TextInput({ label, className, readOnly, ...input }: Props) {
  const id = useId();
  const running = useAppRunning();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-300">
        {label}
      </label>
      <input
        {...input}
        // Read-only until the app runs (prerendered page): what is typed before would not reach it.
        readOnly={readOnly === true || !running}
        id={id}
        className={`w-full rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-white outline-none focus:border-cyan-400 ${className ?? ''}`}
      />
    </div>
  );
}
