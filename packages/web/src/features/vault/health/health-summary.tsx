import { CATEGORY_TITLES, HEALTH_CATEGORIES, type HealthReport } from './health-analysis';
import type { BreachState } from './use-health-report';

function breachLine(breach: BreachState): string {
  if (breach === 'off') return 'Breached passwords were not looked for: the breach check is off.';
  if (breach === 'checking') return 'Looking for breached passwords…';
  if (breach === 'done') return 'Breached passwords were looked for with the breach check.';
  return `The breach check failed: ${breach.failed}`;
}

/** The score, the number of items checked, and one count per category. */
export function HealthSummary({ report, breach }: { report: HealthReport; breach: BreachState }) {
  return (
    <section aria-labelledby="health-score-title" className="rounded-xl border border-slate-800 bg-slate-900/60 p-4">
      <h2 id="health-score-title" className="text-lg font-semibold text-white">
        Health score: <span data-testid="health-score">{report.score}</span> / 100
      </h2>
      <p className="mt-1 text-sm text-slate-400">
        {report.checked} {report.checked === 1 ? 'item' : 'items'} checked. <span aria-live="polite">{breachLine(breach)}</span>
      </p>
      <ul aria-label="Problems by category" className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {HEALTH_CATEGORIES.map((category) => (
          <li key={category} className="flex items-center justify-between rounded-lg bg-slate-800/70 px-3 py-2 text-sm">
            <span className="text-slate-200">{CATEGORY_TITLES[category]}</span>
            <span className="font-semibold text-white" aria-label={`${CATEGORY_TITLES[category]}: ${report.counts[category]}`}>
              {report.counts[category]}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
