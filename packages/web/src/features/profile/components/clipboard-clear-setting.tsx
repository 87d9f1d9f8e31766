import { useId } from 'react';
import { card } from '@/components/ui/styles';
import {
  CLIPBOARD_CLEAR_CHOICES,
  saveClipboardClearSeconds,
  useClipboardClearSeconds,
  type ClipboardClearSeconds,
} from '@/lib/clipboard-clear';

export function clipboardClearLabel(seconds: number): string {
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * How long a copied password, user name or code stays on the clipboard. Kept per browser, like
 * the auto-lock delay; only the number is stored (not secret).
 */
export function ClipboardClearSetting() {
  const selectId = useId();
  const hintId = useId();
  const seconds = useClipboardClearSeconds();
  return (
    <section aria-labelledby={`${selectId}-title`} className={card}>
      <h2 id={`${selectId}-title`} className="mb-4 text-xl font-semibold text-white">
        Clipboard
      </h2>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={selectId} className="text-sm font-medium text-slate-300">
          Clear clipboard after
        </label>
        <select
          id={selectId}
          aria-describedby={hintId}
          value={seconds}
          onChange={(event) => saveClipboardClearSeconds(Number(event.target.value) as ClipboardClearSeconds)}
          className="rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-white outline-none focus:border-cyan-400"
        >
          {CLIPBOARD_CLEAR_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {clipboardClearLabel(choice)}
            </option>
          ))}
        </select>
      </div>
      <p id={hintId} className="mt-3 text-sm text-slate-400">
        After you copy a password, user name or code, Lockit empties the clipboard once this time has passed, if it still holds
        what Lockit put there; anything you copied since stays. This setting applies to this browser.
      </p>
    </section>
  );
}
