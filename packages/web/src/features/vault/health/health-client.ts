import type { HealthRequest } from './compute-health';
import type { ItemFacts } from './health-analysis';
import { yieldToMain } from '../lib/yield-to-main';
import { HEALTH_SLICE, type HealthWarmRequest, type HealthWorkerMessage, type HealthWorkerRequest } from './health-protocol';

export interface HealthRunCallbacks {
  onFacts(facts: ItemFacts[]): void;
  onBreaches(counts: Record<string, number>): void;
  onBreachFailed(message: string): void;
  onFailed(message: string): void;
}

let worker: Worker | undefined;
let nextRunId = 0;

/**
 * One module worker per tab, made on the first report and kept, so the breach check's range
 * answers stay cached for the session. Vite bundles it (and zxcvbn, loaded inside it on
 * demand) as separate files.
 */
function healthWorker(): Worker {
  worker ??= new Worker(new URL('./health-worker.ts', import.meta.url), { type: 'module', name: 'lockit-health' });
  return worker;
}

/**
 * Starts the worker and has it load zxcvbn ahead of the report (the health page calls this
 * while the vault unlocks and opens), so the report does not wait for either. Harmless where
 * workers cannot start.
 */
export function prewarmHealthWorker(): void {
  if (typeof Worker === 'undefined') return;
  try {
    const warm: HealthWarmRequest = { warm: true };
    healthWorker().postMessage(warm);
  } catch {
    // The report starts the worker itself, and says so if it cannot.
  }
}

/**
 * Starts a report in the worker; returns a function that stops listening (a newer run or an
 * unmount). The vault key travels as a CryptoKey: structured clone keeps it non-extractable.
 */
export function runHealthReport(
  request: HealthRequest,
  breachCheckUrl: string | null,
  callbacks: HealthRunCallbacks,
  target: Worker = healthWorker(),
): () => void {
  const runId = ++nextRunId;
  let stopped = false;
  let facts: ItemFacts[] = [];
  const onMessage = (event: MessageEvent<HealthWorkerMessage>) => {
    const message = event.data;
    if (message.runId !== runId) return;
    if (message.kind === 'facts') {
      facts = facts.concat(message.facts);
      if (message.done) callbacks.onFacts(facts);
    } else if (message.kind === 'breaches') callbacks.onBreaches(message.counts);
    else if (message.kind === 'breach-failed') callbacks.onBreachFailed(message.message);
    else callbacks.onFailed(message.message);
  };
  const onError = () => callbacks.onFailed('The health report could not be computed.');
  target.addEventListener('message', onMessage);
  target.addEventListener('error', onError);
  // Slices with a yield between them: each structured clone stays a short task.
  void (async () => {
    const { items, ...rest } = request;
    for (let start = 0; start < items.length || start === 0; start += HEALTH_SLICE) {
      if (start > 0) await yieldToMain();
      if (stopped) return;
      const done = start + HEALTH_SLICE >= items.length;
      const message: HealthWorkerRequest = {
        runId,
        breachCheckUrl,
        ...rest,
        items: items.slice(start, start + HEALTH_SLICE),
        done,
      };
      target.postMessage(message);
    }
  })();
  return () => {
    stopped = true;
    target.removeEventListener('message', onMessage);
    target.removeEventListener('error', onError);
  };
}
