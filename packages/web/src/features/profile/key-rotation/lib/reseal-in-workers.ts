import { resealUnit, type ResealedUnit, type ResealKeys, type ResealUnit } from './reseal';
import type { ResealSliceRequest, ResealSliceResponse } from './reseal-protocol';

/** Units per slice: big enough that a worker's round trip is noise, small enough for smooth progress. */
const SLICE = 200;
/** Slices queued per worker, so a worker never waits for the page between two. */
const IN_FLIGHT = 2;
/** Below this many units the page does the work itself: starting workers would cost more. */
export const WORKERS_FROM = 300;

/** A worker could not start or run here (tests, a browser without module workers, a script that failed). */
class WorkerUnavailable extends Error {}

/**
 * Re-encrypts every unit under the new key, in the units' order. With many units the work is
 * spread over a few workers made for this rotation and ended with it (one per core, two to
 * four: WebCrypto works on its own threads too); with few, or where workers cannot run, on the
 * page. `onProgress` hears how many units are done.
 */
export async function resealAll(
  keys: ResealKeys,
  units: readonly ResealUnit[],
  onProgress: (done: number) => void,
): Promise<ResealedUnit[]> {
  if (typeof Worker !== 'undefined' && units.length >= WORKERS_FROM) {
    try {
      return await resealInWorkers(keys, units, onProgress);
    } catch (error) {
      if (!(error instanceof WorkerUnavailable)) throw error;
    }
  }
  return resealOnPage(keys, units, onProgress);
}

async function resealOnPage(
  keys: ResealKeys,
  units: readonly ResealUnit[],
  onProgress: (done: number) => void,
): Promise<ResealedUnit[]> {
  const out: ResealedUnit[] = [];
  for (let start = 0; start < units.length; start += SLICE) {
    const slice = units.slice(start, start + SLICE);
    out.push(...(await Promise.all(slice.map((unit) => resealUnit(keys, unit)))));
    onProgress(out.length);
  }
  return out;
}

function workerCount(): number {
  const cores = typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2;
  return Math.min(4, Math.max(2, cores));
}

function resealInWorkers(
  keys: ResealKeys,
  units: readonly ResealUnit[],
  onProgress: (done: number) => void,
): Promise<ResealedUnit[]> {
  let workers: Worker[];
  try {
    workers = Array.from(
      { length: workerCount() },
      (_, i) =>
        new Worker(new URL('./reseal-worker.ts', import.meta.url), { type: 'module', name: `lockit-key-rotation-${i + 1}` }),
    );
  } catch {
    return Promise.reject(new WorkerUnavailable());
  }
  const count = Math.ceil(units.length / SLICE);
  const results: ResealedUnit[][] = new Array<ResealedUnit[]>(count);
  let next = 0;
  let finished = 0;
  let done = 0;
  return new Promise<ResealedUnit[]>((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown) => {
      if (settled) return;
      settled = true;
      for (const worker of workers) worker.terminate();
      if (error === null) resolve(results.flat());
      else reject(error);
    };
    const send = (worker: Worker) => {
      if (next >= count || settled) return;
      const slice = next++;
      const request: ResealSliceRequest = { slice, keys, units: units.slice(slice * SLICE, (slice + 1) * SLICE) };
      worker.postMessage(request);
    };
    for (const worker of workers) {
      worker.addEventListener('message', (event: MessageEvent<ResealSliceResponse>) => {
        const answer = event.data;
        if (!answer.ok) return finish(new Error(answer.message));
        results[answer.slice] = answer.resealed;
        done += answer.resealed.length;
        finished += 1;
        onProgress(done);
        if (finished === count) return finish(null);
        send(worker);
      });
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        finish(new WorkerUnavailable());
      });
    }
    for (let round = 0; round < IN_FLIGHT; round++) for (const worker of workers) send(worker);
  });
}
