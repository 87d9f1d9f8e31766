// Tests only: Node's worker_threads as the core's WorkerPort and WorkerScope, so the pool's
// tests cross a real thread boundary (structured clone, transfers, a crashing worker).
import { parentPort, Worker } from 'node:worker_threads';
import type { WorkerPort, WorkerScope } from '../../src/workers/worker-port';

type Listener = (event: never) => void;

/** A TypeScript worker file run in a thread (tsx registered in it first), as a WorkerPort. */
export function nodeWorkerPort(file: URL): WorkerPort {
  // `--import tsx` in execArgv does not reach a worker's loader on Node 20: register it there.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file.href)}); });`;
  const worker = new Worker(boot, { eval: true });
  const wrapped = new Map<Listener, (value: unknown) => void>();
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer as ArrayBuffer[] | undefined),
    addEventListener(type: 'message' | 'error', listener: Listener) {
      const handler =
        type === 'message'
          ? (data: unknown) => (listener as (event: { data: unknown }) => void)({ data })
          : () => (listener as (event: { preventDefault(): void }) => void)({ preventDefault() {} });
      wrapped.set(listener, handler);
      worker.on(type, handler);
      // A thread that exits is a page's worker that errored: no answer will come.
      if (type === 'error') worker.on('exit', handler);
    },
    removeEventListener(type: 'message' | 'error', listener: Listener) {
      const handler = wrapped.get(listener);
      if (handler) worker.off(type, handler);
      if (handler && type === 'error') worker.off('exit', handler);
      wrapped.delete(listener);
    },
    terminate: () => void worker.terminate(),
  } as WorkerPort;
}

/** This thread's parent port as the worker side's scope. */
export function nodeWorkerScope(): WorkerScope {
  if (!parentPort) throw new Error('Not in a worker thread.');
  const port = parentPort;
  return {
    addEventListener: (_type, listener) => port.on('message', (data: unknown) => listener({ data })),
    postMessage: (message, transfer) => port.postMessage(message, transfer as ArrayBuffer[] | undefined),
  };
}
