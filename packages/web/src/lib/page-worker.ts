import type { WorkerPort } from '@lockit/client-core';

/**
 * A module worker of this app as the client core's WorkerPort. Call it as
 * `asWorkerPort(new Worker(new URL('./x-worker.ts', import.meta.url), { type: 'module', name }))`:
 * Vite bundles a worker only where it sees exactly that `new Worker(new URL(...))` expression
 * (anywhere else the URL is copied as a raw asset and the worker fails to load).
 */
export function asWorkerPort(worker: Worker): WorkerPort {
  // The DOM's Worker is a WorkerPort; the core, which has no DOM types, describes it structurally.
  return worker as unknown as WorkerPort;
}
