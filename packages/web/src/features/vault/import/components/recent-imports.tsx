import { buttonSecondary } from '@/components/ui/styles';
import type { RecentImport } from '../lib/recent-imports';

/** The imports this browser made for this account, newest first, each with its undo. */
export function RecentImports({
  imports,
  busy,
  onUndo,
}: {
  imports: readonly RecentImport[];
  busy: string | null;
  onUndo: (batch: RecentImport) => void;
}) {
  if (imports.length === 0) return null;
  return (
    <section aria-labelledby="recent-imports" className="mt-10">
      <h2 id="recent-imports" className="text-lg font-semibold text-white">
        Recent imports
      </h2>
      <ul className="mt-3 flex flex-col gap-2">
        {imports.map((batch) => (
          <li
            key={batch.batchId}
            className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-700 p-3"
          >
            <span className="text-slate-200">
              {batch.count} items from {batch.source}, {new Date(batch.at).toLocaleString()}
            </span>
            <button
              type="button"
              className={buttonSecondary}
              disabled={busy !== null}
              onClick={() => onUndo(batch)}
              aria-label={`Undo import of ${batch.count} items from ${batch.source}`}
            >
              {busy === batch.batchId ? 'Undoing...' : 'Undo'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
