import type { HealthRequest } from './compute-health';
import type { ItemFacts } from './health-analysis';

/**
 * Page -> worker, one job per slice of items (`done` on the last): one structured clone of
 * 10,000 items would be one long main-thread task. `breachCheckUrl` null: no breach check (not
 * opted in, or off on the server). Or, ahead of a report, `warm`: load what scoring needs
 * (zxcvbn) while the vault opens.
 */
export type HealthJob = ({ runId: number; done: boolean } & HealthRequest & { breachCheckUrl: string | null }) | { warm: true };

/** Items or facts per message. */
export const HEALTH_SLICE = 1000;

/**
 * Worker -> page, as events of a run's last job: the facts in slices (`done` on the last), then
 * (opted in) the breach counts or why the check failed. A report that cannot be computed fails
 * the job.
 */
export type HealthEvent =
  | { kind: 'facts'; facts: ItemFacts[]; done: boolean; zxcvbnRuns: number }
  | { kind: 'breaches'; counts: Record<string, number> }
  | { kind: 'breach-failed'; message: string };
