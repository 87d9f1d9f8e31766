import { WorkerPool, WorkerUnavailable } from '@lockit/client-core';
import { asWorkerPort } from '@/lib/page-worker';
import type { HealthRequest } from './compute-health';
import type { ItemFacts } from './health-analysis';
import { HEALTH_SLICE, type HealthEvent, type HealthJob } from './health-protocol';

export interface HealthRunCallbacks {
  onFacts(facts: ItemFacts[]): void;
  onBreaches(counts: Record<string, number>): void;
  onBreachFailed(message: string): void;
  onFailed(message: string): void;
}

let pool: WorkerPool<HealthJob, null, HealthEvent> | undefined;
let nextRunId = 0;

/**
 * One module worker per tab (the client core's pool of one), made on the first report and
 * kept, so the breach check's range answers stay cached for the session. Vite bundles it (and
 * zxcvbn, loaded inside it on demand) as separate files. One job at a time in flight: each
 * slice is cloned in a task of its own.
 */
function healthPool(): WorkerPool<HealthJob, null, HealthEvent> {
  pool ??= new WorkerPool({
    spawn: () =>
      asWorkerPort(new Worker(new URL('./health-worker.ts', import.meta.url), { type: 'module', name: 'lockit-health' })),
    size: 1,
    inFlight: 1,
  });
  return pool;
}

/**
 * Starts the worker and has it load zxcvbn ahead of the report (the health page calls this
 * while the vault unlocks and opens), so the report does not wait for either. Harmless where
 * workers cannot start.
 */
export function prewarmHealthWorker(): void {
  if (typeof Worker === 'undefined') return;
  healthPool()
    .one({ warm: true })
    .catch(() => undefined);
}

/**
 * Starts a report in the worker; returns a function that stops listening (a newer run or an
 * unmount). The vault key travels as a CryptoKey: structured clone keeps it non-extractable.
 */
export function runHealthReport(
  request: HealthRequest,
  breachCheckUrl: string | null,
  callbacks: HealthRunCallbacks,
): () => void {
  const runId = ++nextRunId;
  const stop = new AbortController();
  let facts: ItemFacts[] = [];
  const { items, ...rest } = request;
  const slices = Math.max(1, Math.ceil(items.length / HEALTH_SLICE));
  const onEvent = (event: HealthEvent) => {
    if (event.kind === 'facts') {
      facts = facts.concat(event.facts);
      if (event.done) callbacks.onFacts(facts);
    } else if (event.kind === 'breaches') callbacks.onBreaches(event.counts);
    else callbacks.onBreachFailed(event.message);
  };
  healthPool()
    .run(
      slices,
      (index) => ({
        runId,
        breachCheckUrl,
        ...rest,
        items: items.slice(index * HEALTH_SLICE, (index + 1) * HEALTH_SLICE),
        done: index === slices - 1,
      }),
      { signal: stop.signal, onEvent },
    )
    .catch((error: unknown) => {
      if (stop.signal.aborted) return;
      callbacks.onFailed(
        error instanceof Error && !(error instanceof WorkerUnavailable)
          ? error.message
          : 'The health report could not be computed.',
      );
    });
  return () => stop.abort();
}
