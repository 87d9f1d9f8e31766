import { useState } from 'react';
import { useNavigate } from 'react-router';
import { buttonSecondary } from '@/components/ui/styles';
import { paths } from '@/config/paths';
import type { OpenEntry } from '@lockit/client-core';
import { CATEGORY_TITLES, HEALTH_CATEGORIES, type HealthCategory, type HealthReport, type ItemFindings } from './health-analysis';

const smallButton = `${buttonSecondary} px-3 py-1 text-sm`;

/**
 * Rows shown per category before "Show more": a vault of 10,000 can have thousands in one
 * category (most logins have no TOTP seed), and rendering them all at once would block the
 * page for seconds.
 */
export const ROWS_PER_STEP = 20;

/** Where "Change" goes: the vault, which opens this item's Edit dialog with the generator ready. */
export function changeLinkOf(id: string): string {
  return `${paths.vault}?edit=${encodeURIComponent(id)}&generate=1`;
}

function detailOf(category: HealthCategory, finding: ItemFindings, report: HealthReport): string {
  switch (category) {
    case 'breached':
      return `Seen ${finding.breachCount.toLocaleString('en')} ${finding.breachCount === 1 ? 'time' : 'times'} in data breaches.`;
    case 'weak':
      return 'Easy to guess: replace it with a generated one.';
    case 'reused': {
      const size = finding.reusedGroup === null ? 0 : (report.reusedGroups[finding.reusedGroup]?.length ?? 0);
      return `The same password is used by ${size} items (group ${(finding.reusedGroup ?? 0) + 1}).`;
    }
    case 'insecureUrl':
      return `Not HTTPS: ${finding.insecureUrls.join(', ')}`;
    case 'old':
      return `Password last changed ${finding.passwordChangedAt.slice(0, 10)}.`;
    case 'noTotp':
      return 'No TOTP seed saved: turn on two-step sign-in at the site if it offers it.';
  }
}

/** One section per category with problems: each item with "Change" and "Exclude from report". */
export function HealthFindings({
  report,
  entries,
  onExclude,
  busy,
}: {
  report: HealthReport;
  entries: ReadonlyMap<string, OpenEntry>;
  onExclude: (id: string) => void;
  busy: boolean;
}) {
  const navigate = useNavigate();
  if (report.findings.length === 0) {
    return <p className="text-slate-200">No problems found in the items checked.</p>;
  }
  return (
    <>
      {HEALTH_CATEGORIES.filter((category) => report.counts[category] > 0).map((category) => (
        <CategorySection
          key={category}
          category={category}
          report={report}
          entries={entries}
          onChange={(id) => void navigate(changeLinkOf(id))}
          onExclude={onExclude}
          busy={busy}
        />
      ))}
    </>
  );
}

function CategorySection({
  category,
  report,
  entries,
  onChange,
  onExclude,
  busy,
}: {
  category: HealthCategory;
  report: HealthReport;
  entries: ReadonlyMap<string, OpenEntry>;
  onChange: (id: string) => void;
  onExclude: (id: string) => void;
  busy: boolean;
}) {
  const [shown, setShown] = useState(ROWS_PER_STEP);
  const title = CATEGORY_TITLES[category];
  const inCategory = report.findings.filter((finding) => finding.categories.includes(category));
  return (
    <section aria-label={title} className="rounded-xl border border-slate-800 bg-slate-900/60 p-4">
      <h2 className="text-lg font-semibold text-white">
        {title} ({inCategory.length})
      </h2>
      <ul aria-label={title} className="mt-2 divide-y divide-slate-800">
        {inCategory.slice(0, shown).map((finding) => {
          const entry = entries.get(finding.id);
          const name = entry?.serviceName ?? 'Unnamed item';
          return (
            <li key={finding.id} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="truncate font-medium text-white">{name}</p>
                <p className="text-sm break-words text-slate-400">
                  {entry?.username ? `${entry.username} · ` : ''}
                  {detailOf(category, finding, report)}
                </p>
              </div>
              <div className="flex shrink-0 gap-2">
                <button type="button" className={smallButton} aria-label={`Change ${name}`} onClick={() => onChange(finding.id)}>
                  Change
                </button>
                <button
                  type="button"
                  className={smallButton}
                  aria-label={`Exclude ${name} from report`}
                  disabled={busy}
                  onClick={() => onExclude(finding.id)}
                >
                  Exclude from report
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {inCategory.length > shown && (
        <button type="button" className={`${smallButton} mt-2`} onClick={() => setShown((count) => count + ROWS_PER_STEP * 5)}>
          Show more ({inCategory.length - shown} not shown)
        </button>
      )}
    </section>
  );
}

/** Items left out of the report, each with "Include again" (the undo of an exclusion). */
export function ExcludedItems({
  ids,
  entries,
  onInclude,
  busy,
}: {
  ids: readonly string[];
  entries: ReadonlyMap<string, OpenEntry>;
  onInclude: (id: string) => void;
  busy: boolean;
}) {
  const present = ids.filter((id) => entries.has(id));
  if (present.length === 0) return null;
  return (
    <section aria-label="Excluded from the report" className="rounded-xl border border-slate-800 bg-slate-900/60 p-4">
      <h2 className="text-lg font-semibold text-white">Excluded from the report ({present.length})</h2>
      <ul aria-label="Excluded from the report" className="mt-2 divide-y divide-slate-800">
        {present.map((id) => {
          const name = entries.get(id)?.serviceName ?? 'Unnamed item';
          return (
            <li key={id} className="flex items-center justify-between gap-2 py-2">
              <span className="truncate text-white">{name}</span>
              <button
                type="button"
                className={smallButton}
                aria-label={`Include ${name} again`}
                disabled={busy}
                onClick={() => onInclude(id)}
              >
                Include again
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
