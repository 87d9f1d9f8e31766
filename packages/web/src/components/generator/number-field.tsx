import { useId, useState } from 'react';

interface NumberFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  disabled?: boolean;
  onChange(value: number): void;
}

/**
 * A whole-number field that accepts what is typed on the way to a valid value ("1" on the way
 * to "16" when the minimum is 5): it passes a value on only once it is within bounds, and
 * shows the last valid value again when it loses focus.
 */
export function NumberField({ label, value, min, max, disabled, onChange }: NumberFieldProps) {
  const id = useId();
  // What is being typed; null (not editing) shows the value itself.
  const [text, setText] = useState<string | null>(null);
  return (
    <div className="flex items-center justify-between gap-3">
      <label htmlFor={id} className="text-sm font-medium text-slate-300">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={text ?? String(value)}
        disabled={disabled}
        onChange={(event) => {
          setText(event.target.value);
          const parsed = Number(event.target.value);
          if (event.target.value !== '' && Number.isInteger(parsed) && parsed >= min && parsed <= max) onChange(parsed);
        }}
        onBlur={() => setText(null)}
        className="w-20 rounded-lg border border-slate-700 bg-slate-800 px-2 py-1 text-right text-white outline-none focus:border-cyan-400 disabled:opacity-60"
      />
    </div>
  );
}

/** A labelled checkbox in the app's style. */
export function CheckboxField({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-200">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="h-4 w-4 accent-cyan-500"
      />
      {label}
    </label>
  );
}
