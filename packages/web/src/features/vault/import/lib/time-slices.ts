import { yieldToMain } from '@lockit/client-core';

/** Work per slice: well under the 50 ms of a long task, leaving the frame room to paint. */
export const SLICE_MS = 12;

/**
 * Calls `each` on every item, giving the main thread back every SLICE_MS so that no task of
 * an import runs long (10,000 items included). `signal` stops between slices.
 */
export async function forEachInSlices<T>(
  items: readonly T[],
  each: (item: T, index: number) => void,
  options: { signal?: AbortSignal; onProgress?: (done: number) => void } = {},
): Promise<void> {
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    each(items[i]!, i);
    if (performance.now() - sliceStart >= SLICE_MS) {
      options.onProgress?.(i + 1);
      await yieldToMain();
      options.signal?.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  options.onProgress?.(items.length);
}
