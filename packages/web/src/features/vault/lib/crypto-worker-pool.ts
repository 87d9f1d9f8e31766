import { poolSize, WorkerPool, WorkerUnavailable } from '@lockit/client-core';
import { asWorkerPort } from '@/lib/page-worker';
import type { CryptoSliceRequest, CryptoSliceResponse } from './crypto-worker-protocol';

export { WorkerUnavailable } from '@lockit/client-core';

/** Below this many entries the page does the work itself: a worker's start would cost more. */
export const WORKERS_FROM = 500;

/** The vault's crypto workers (crypto-worker.ts): the client core's pool, kept for the tab's life. */
const pool = new WorkerPool<CryptoSliceRequest, CryptoSliceResponse>({
  spawn: (index) =>
    asWorkerPort(
      new Worker(new URL('./crypto-worker.ts', import.meta.url), { type: 'module', name: `lockit-crypto-${index + 1}` }),
    ),
  size: poolSize(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency),
});

/** Whether `count` items are worth the workers, and workers exist in this environment. */
export function workersPayOffFor(count: number): boolean {
  return typeof Worker !== 'undefined' && count >= WORKERS_FROM;
}

/**
 * Starts the crypto workers ahead of need (during the unlock's key derivation), so their
 * scripts are loaded when the entries arrive. Harmless where workers cannot start.
 */
export function prewarmCryptoWorkers(): void {
  if (typeof Worker !== 'undefined') pool.prewarm();
}

/**
 * Cuts `items` into slices of `sliceSize`, sends each (as `request(slice)` builds it) to the
 * pool and resolves with the answers in the slices' order. `onSlice` hears each answer as it
 * arrives. A worker that cannot run rejects with WorkerUnavailable (the caller then works on
 * the page); a slice that fails rejects with its message.
 */
export function runInSlices<T, A extends CryptoSliceResponse>(
  items: readonly T[],
  sliceSize: number,
  request: (slice: readonly T[]) => CryptoSliceRequest,
  { signal, onSlice }: { signal?: AbortSignal; onSlice?: (answer: A, size: number) => void } = {},
): Promise<A[]> {
  if (typeof Worker === 'undefined') return Promise.reject(new WorkerUnavailable());
  const count = Math.ceil(items.length / sliceSize);
  return pool.run(count, (index) => request(items.slice(index * sliceSize, (index + 1) * sliceSize)), {
    signal,
    onAnswer: (answer, index) => onSlice?.(answer as A, Math.min(sliceSize, items.length - index * sliceSize)),
  }) as Promise<A[]>;
}
