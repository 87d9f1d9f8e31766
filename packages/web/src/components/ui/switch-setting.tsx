import { useId, type ReactNode } from 'react';

/**
 * A setting that is on or off: a switch with its label and, under it, a hint that says what
 * each position does (read out with the switch). Saving is the caller's: `onChange` gets the
 * new position.
 */
export function SwitchSetting({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint: ReactNode;
}) {
  const id = useId();
  return (
    <div className="mt-4">
      <label htmlFor={id} className="flex items-center gap-3 text-sm font-medium text-slate-300">
        <input
          id={id}
          type="checkbox"
          role="switch"
          aria-describedby={`${id}-hint`}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          className="h-4 w-4 accent-cyan-400"
        />
        {label}
      </label>
      <p id={`${id}-hint`} className="mt-2 text-sm text-slate-400">
        {hint}
      </p>
    </div>
  );
}
