/**
 * The part of a worker the client core uses: what a page's `Worker` is, and what a platform
 * adapts its own to (Node's worker_threads, an extension's offscreen document). Structural, so
 * the core needs no DOM types.
 */
export interface WorkerPort {
  postMessage(message: unknown, transfer?: readonly Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'error', listener: (event: { preventDefault(): void }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'error', listener: (event: { preventDefault(): void }) => void): void;
  terminate(): void;
}

/** A worker's own side: where it hears jobs and answers them (a dedicated worker's `self`). */
export interface WorkerScope {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown, transfer?: readonly Transferable[]): void;
}

/** Objects a message may hand over rather than copy (e.g. an ArrayBuffer of key bytes). */
export type Transferable = ArrayBuffer | { readonly byteLength?: never };
