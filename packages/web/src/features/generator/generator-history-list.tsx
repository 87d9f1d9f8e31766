import { useId, useState } from 'react';
import type { useGeneratorHistory } from '@/components/generator/use-generator-history';
import { buttonSecondary } from '@/components/ui/styles';
import { DAMAGED_DOCUMENT_MESSAGE } from '@/lib/account-documents';
import { logFailure } from '@/lib/log';
import { copyWithClear } from '@/lib/clipboard';

const smallButton = `${buttonSecondary} px-3 py-1.5 text-sm`;
const dangerSmall =
  'inline-flex items-center justify-center rounded-lg bg-red-600 px-3 py-1.5 text-sm font-semibold text-white transition hover:bg-red-500 disabled:opacity-60';

type History = ReturnType<typeof useGeneratorHistory>;

/** The account's generator history, newest first: each value hidden until shown, with copy; and clear. */
export function GeneratorHistoryList({ history }: { history: History }) {
  const headingId = useId();
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const { entries, status } = history;

  const copy = async (value: string) => {
    try {
      await copyWithClear(value);
      setNote('Copied.');
    } catch (error) {
      logFailure('Copying a password from the generator history', error);
      setNote('Could not copy: the clipboard is not available here.');
    }
  };
  const clear = async () => {
    setConfirming(false);
    const outcome = await history.clear();
    setNote(outcome.ok ? 'History cleared.' : outcome.message);
  };

  return (
    <section aria-labelledby={headingId} className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold text-white">
          History
        </h2>
        {status === 'ready' && entries.length > 0 && (
          <div className="flex gap-2">
            <button type="button" className={smallButton} aria-pressed={shown} onClick={() => setShown((s) => !s)}>
              {shown ? 'Hide passwords' : 'Show passwords'}
            </button>
            <button type="button" className={smallButton} onClick={() => setConfirming(true)}>
              Clear history
            </button>
          </div>
        )}
      </div>
      {confirming && (
        <div role="alertdialog" aria-label="Clear history" className="mt-3 flex flex-wrap items-center gap-3 text-slate-200">
          <span>Remove all {entries.length} passwords from the history, on every device?</span>
          <button type="button" className={dangerSmall} onClick={() => void clear()}>
            Clear
          </button>
          <button type="button" className={smallButton} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-300">
        {note}
      </p>
      {status === 'loading' && <p className="text-slate-300">Loading...</p>}
      {status === 'error' && <p className="text-slate-300">The history could not be loaded. Try again later.</p>}
      {status === 'damaged' && (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-amber-300">
          <span>Your generator history: {DAMAGED_DOCUMENT_MESSAGE}</span>
          <button type="button" className={smallButton} onClick={() => void history.reset()}>
            Start a new history
          </button>
        </div>
      )}
      {status === 'ready' && entries.length === 0 && (
        <p className="text-slate-300">Nothing yet. Passwords you copy or use appear here.</p>
      )}
      {status === 'ready' && entries.length > 0 && (
        <ol className="flex flex-col divide-y divide-slate-800 rounded-xl border border-slate-800">
          {entries.map((entry) => (
            <li key={`${entry.at}-${entry.value}`} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="min-w-0 flex-1">
                <p className="font-mono break-all text-white" data-testid="history-value">
                  {shown ? entry.value : '•'.repeat(Math.min(entry.value.length, 16))}
                  {!shown && <span className="sr-only">(hidden)</span>}
                </p>
                <p className="text-sm text-slate-400">
                  <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>
                  {entry.item && <> · for {entry.item}</>}
                </p>
              </div>
              <button type="button" className={smallButton} onClick={() => void copy(entry.value)}>
                Copy <span className="sr-only">the password of {new Date(entry.at).toLocaleString()}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
