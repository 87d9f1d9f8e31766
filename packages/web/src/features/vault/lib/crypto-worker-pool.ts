import type { CryptoSliceRequest, CryptoSliceResponse } from './crypto-worker-protocol';

/** Slices queued per worker, so a worker never waits for the page between two slices. */
const IN_FLIGHT = 2;
/** Below this many entries the page does the work itself: a worker's start would cost more. */
export const WORKERS_FROM = 500;

/** Workers cannot start here (tests, a browser without module workers, a script that fails to load). */
export class WorkerUnavailable extends Error {}

let pool: Worker[] | null = null;
let nextSliceId = 0;

/** One worker per core, at least two (WebCrypto works on its own threads too), at most four. */
function workerCount(): number {
  const cores = typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2;
  return Math.min(4, Math.max(2, cores));
}

function workers(): Worker[] {
  if (pool) return pool;
  try {
    pool = Array.from(
      { length: workerCount() },
      (_, i) => new Worker(new URL('./crypto-worker.ts', import.meta.url), { type: 'module', name: `lockit-crypto-${i + 1}` }),
    );
  } catch {
    throw new WorkerUnavailable();
  }
  return pool;
}

function dropPool(): void {
  for (const worker of pool ?? []) worker.terminate();
  pool = null;
}

/** Whether `count` items are worth the workers, and workers exist in this environment. */
export function workersPayOffFor(count: number): boolean {
  return typeof Worker !== 'undefined' && count >= WORKERS_FROM;
}

/**
 * Starts the crypto workers ahead of need (during the unlock's key derivation), so their
 * scripts are loaded when the entries arrive. Harmless where workers cannot start.
 */
export function prewarmCryptoWorkers(): void {
  if (typeof Worker === 'undefined') return;
  try {
    workers();
  } catch {
    // The callers fall back to the page.
  }
}

type SliceWork = Omit<CryptoSliceRequest, 'slice'> extends infer W ? (W extends unknown ? W : never) : never;
type SliceAnswer = Extract<CryptoSliceResponse, { ok: true }>;

/**
 * Cuts `items` into slices of `sliceSize`, sends each (as `request(slice)` builds it) to the
 * pool, IN_FLIGHT per worker, and resolves with the answers in the slices' order.
 * `onSlice` hears each answer as it arrives. A worker that cannot run rejects with
 * WorkerUnavailable (the pool is dropped; the caller then works on the page); a slice that
 * fails rejects with its message.
 */
export async function runInSlices<T, A extends SliceAnswer>(
  items: readonly T[],
  sliceSize: number,
  request: (slice: readonly T[]) => SliceWork,
  { signal, onSlice }: { signal?: AbortSignal; onSlice?: (answer: A, size: number) => void } = {},
): Promise<A[]> {
  try {
    return await dispatch(workers(), items, sliceSize, request, signal, onSlice);
  } catch (error) {
    if (error instanceof WorkerUnavailable) dropPool();
    throw error;
  }
}

function dispatch<T, A extends SliceAnswer>(
  pool: Worker[],
  items: readonly T[],
  sliceSize: number,
  request: (slice: readonly T[]) => SliceWork,
  signal: AbortSignal | undefined,
  onSlice: ((answer: A, size: number) => void) | undefined,
): Promise<A[]> {
  const count = Math.ceil(items.length / sliceSize);
  const results: A[] = new Array<A>(count);
  const pending = new Map<number, number>();
  let next = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    if (count === 0) return resolve(results);
    const listeners = pool.map((worker) => {
      const onMessage = (event: MessageEvent<CryptoSliceResponse>) => {
        const index = pending.get(event.data.slice);
        // A slice of an earlier, aborted run: not this one's.
        if (index === undefined) return;
        pending.delete(event.data.slice);
        if (!event.data.ok) return finish(new Error(event.data.message));
        results[index] = event.data as A;
        done += 1;
        onSlice?.(event.data as A, Math.min(sliceSize, items.length - index * sliceSize));
        if (done === count) return finish(null);
        send(worker);
      };
      const onError = (event: Event) => {
        event.preventDefault();
        finish(new WorkerUnavailable());
      };
      worker.addEventListener('message', onMessage);
      worker.addEventListener('error', onError);
      return () => {
        worker.removeEventListener('message', onMessage);
        worker.removeEventListener('error', onError);
      };
    });
    const onAbort = () => finish(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', onAbort);
    let finished = false;
    function finish(error: unknown) {
      if (finished) return;
      finished = true;
      for (const remove of listeners) remove();
      signal?.removeEventListener('abort', onAbort);
      pending.clear();
      if (error === null) resolve(results);
      else reject(error);
    }
    function send(worker: Worker) {
      if (next >= count || finished) return;
      const index = next++;
      const slice = nextSliceId++;
      pending.set(slice, index);
      const work = request(items.slice(index * sliceSize, (index + 1) * sliceSize));
      worker.postMessage({ ...work, slice } as CryptoSliceRequest);
    }
    if (signal?.aborted) return onAbort();
    for (let round = 0; round < IN_FLIGHT; round++) for (const worker of pool) send(worker);
  });
}
