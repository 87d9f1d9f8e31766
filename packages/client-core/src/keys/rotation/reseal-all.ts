import { inWorkersOrHere, type WorkerPool } from '../../workers/worker-pool';
import { resealUnit, type ResealedUnit, type ResealKeys, type ResealUnit } from './reseal';
import type { ResealSliceRequest, ResealSliceResponse } from './reseal-protocol';

/** Units per slice: big enough that a worker's round trip is noise, small enough for smooth progress. */
const SLICE = 200;
/** Below this many units the work is done where the rotation runs: starting workers would cost more. */
export const RESEAL_WORKERS_FROM = 300;

/** The platform's re-encryption workers (serveResealJobs), or none where it has no workers. */
export type ResealPool = WorkerPool<ResealSliceRequest, ResealSliceResponse>;

/**
 * Re-encrypts every unit under the new key, in the units' order. With many units and a pool the
 * work is spread over the pool's workers; with few, without a pool, or where its workers cannot
 * run, here. `onProgress` hears how many units are done.
 */
export function resealAll(
  keys: ResealKeys,
  units: readonly ResealUnit[],
  onProgress: (done: number) => void,
  pool: ResealPool | undefined,
): Promise<ResealedUnit[]> {
  return inWorkersOrHere(
    pool !== undefined && units.length >= RESEAL_WORKERS_FROM,
    () => resealInWorkers(pool!, keys, units, onProgress),
    () => resealHere(keys, units, onProgress),
  );
}

async function resealHere(
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
  pool: ResealPool,
  keys: ResealKeys,
  units: readonly ResealUnit[],
  onProgress: (done: number) => void,
): Promise<ResealedUnit[]> {
  let done = 0;
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
}
