import type { HealthRequest } from './compute-health';
import type { ItemFacts } from './health-analysis';

/**
 * Page -> worker, in slices (`done` on the last): one structured clone of 10,000 items would be
 * one long main-thread task. `breachCheckUrl` null: no breach check (not opted in, or off on
 * the server).
 */
export type HealthWorkerRequest = { runId: number; done: boolean } & HealthRequest & { breachCheckUrl: string | null };

/** Page -> worker, ahead of a report: load what scoring needs (zxcvbn) while the vault opens. */
export interface HealthWarmRequest {
  warm: true;
}

/** Items or facts per message. */
export const HEALTH_SLICE = 1000;

/** Worker -> page: the facts in slices (`done` on the last), then (opted in) the breach counts, or a failure. */
export type HealthWorkerMessage =
  | { runId: number; kind: 'facts'; facts: ItemFacts[]; done: boolean; zxcvbnRuns: number }
  | { runId: number; kind: 'breaches'; counts: Record<string, number> }
  | { runId: number; kind: 'breach-failed'; message: string }
  | { runId: number; kind: 'failed'; message: string };
