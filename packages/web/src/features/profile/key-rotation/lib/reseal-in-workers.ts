import { inWorkersOrHere, poolSize, WorkerPool } from '@lockit/client-core';
import { asWorkerPort } from '@/lib/page-worker';
import { resealUnit, type ResealedUnit, type ResealKeys, type ResealUnit } from './reseal';
import type { ResealSliceRequest, ResealSliceResponse } from './reseal-protocol';

/** Units per slice: big enough that a worker's round trip is noise, small enough for smooth progress. */
const SLICE = 200;
/** Below this many units the page does the work itself: starting workers would cost more. */
export const WORKERS_FROM = 300;

/**
 * Re-encrypts every unit under the new key, in the units' order. With many units the work is
 * spread over the client core's pool of workers made for this rotation and ended with it; with
 * few, or where workers cannot run, on the page. `onProgress` hears how many units are done.
 */
export function resealAll(
  keys: ResealKeys,
  units: readonly ResealUnit[],
  onProgress: (done: number) => void,
): Promise<ResealedUnit[]> {
  return inWorkersOrHere(
    typeof Worker !== 'undefined' && units.length >= WORKERS_FROM,
    () => resealInWorkers(keys, units, onProgress),
    () => resealOnPage(keys, units, onProgress),
  );
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

async function resealInWorkers(
  keys: ResealKeys,
  units: readonly ResealUnit[],
  onProgress: (done: number) => void,
): Promise<ResealedUnit[]> {
  const pool = new WorkerPool<ResealSliceRequest, ResealSliceResponse>({
    spawn: (index) =>
      asWorkerPort(
        new Worker(new URL('./reseal-worker.ts', import.meta.url), { type: 'module', name: `lockit-key-rotation-${index + 1}` }),
      ),
    size: poolSize(navigator.hardwareConcurrency),
  });
  let done = 0;
  try {
    const slices = await pool.run(
      Math.ceil(units.length / SLICE),
      (index) => ({ keys, units: units.slice(index * SLICE, (index + 1) * SLICE) }),
      {
        onAnswer: (resealed) => {
          done += resealed.length;
          onProgress(done);
        },
      },
    );
    return slices.flat();
  } finally {
    pool.terminate();
  }
}
