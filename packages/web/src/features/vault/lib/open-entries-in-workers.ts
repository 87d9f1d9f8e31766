import { openEntries, internFieldSet } from './open-entries';
import type { OpenSliceRequest, OpenSliceResponse } from './open-entries-protocol';
import type { RevisionMemory } from './revision-memory';
import { damagedEntry, type VaultEntry } from './vault-entry';

/** Entries per message: a few milliseconds to copy each way, a few hundred decryptions. */
const SLICE_SIZE = 250;
/** Slices queued per worker, so a worker never waits for the page between two slices. */
const IN_FLIGHT = 2;
/** Below this many entries the page opens them itself: a worker's start would cost more. */
const WORKERS_FROM = 500;

class WorkerUnavailable extends Error {}

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
      (_, i) =>
        new Worker(new URL('./open-entries-worker.ts', import.meta.url), { type: 'module', name: `lockit-open-${i + 1}` }),
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

/**
 * Starts the decryption workers ahead of the list (during the unlock's key derivation), so
 * their scripts are loaded when the entries arrive. Harmless where workers cannot start.
 */
export function prewarmEntryWorkers(): void {
  if (typeof Worker === 'undefined') return;
  try {
    workers();
  } catch {
    // openEntriesInWorkers falls back to the page.
  }
}

/**
 * openEntries (open-entries.ts), its slices spread over a pool of workers so the page's main
 * thread only copies entries in and out: no long task blocks input while a large vault opens
 * (decision 0040). The order of `raw` is kept; the rollback check and the
 * revision memory stay on the page. Where workers are unavailable (tests, a browser without
 * module workers, a script that fails to load) the page opens the entries itself, the same
 * way.
 */
export async function openEntriesInWorkers(
  vaultKey: CryptoKey,
  raw: readonly unknown[],
  { signal, revisions }: { signal?: AbortSignal; revisions?: RevisionMemory } = {},
): Promise<VaultEntry[]> {
  if (typeof Worker === 'undefined' || raw.length < WORKERS_FROM) return openEntries(vaultKey, raw, { signal, revisions });
  let slices: (VaultEntry | null)[][];
  try {
    slices = await openSlices(workers(), vaultKey, raw, signal);
  } catch (error) {
    if (!(error instanceof WorkerUnavailable)) throw error;
    dropPool();
    return openEntries(vaultKey, raw, { signal, revisions });
  }
  const entries: VaultEntry[] = [];
  for (const slice of slices) {
    for (const entry of slice) {
      if (entry === null) continue;
      if (entry.status !== 'open') {
        entries.push(entry);
      } else if (revisions?.isRollback(entry.id, entry.revision)) {
        const state = { revision: entry.revision, deletedAt: entry.deletedAt };
        entries.push(damagedEntry(entry.id, entry.createdAt, 'rolled-back', state));
      } else {
        revisions?.note(entry.id, entry.revision);
        // A copy from the worker: share the field-set arrays again, as openEntries does.
        if (entry.sealed.fieldSet !== undefined) entry.sealed.fieldSet = internFieldSet(entry.sealed.fieldSet);
        entries.push(entry);
      }
    }
  }
  return entries;
}

function openSlices(
  pool: Worker[],
  vaultKey: CryptoKey,
  raw: readonly unknown[],
  signal: AbortSignal | undefined,
): Promise<(VaultEntry | null)[][]> {
  const count = Math.ceil(raw.length / SLICE_SIZE);
  const results: (VaultEntry | null)[][] = new Array<(VaultEntry | null)[]>(count);
  const pending = new Map<number, number>();
  let next = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    const listeners = pool.map((worker) => {
      const onMessage = (event: MessageEvent<OpenSliceResponse>) => {
        const index = pending.get(event.data.slice);
        // A slice of an earlier, aborted load: not this one's.
        if (index === undefined) return;
        pending.delete(event.data.slice);
        if (!event.data.ok) return finish(new Error('A decryption worker failed.'));
        results[index] = event.data.entries;
        done += 1;
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
      const request: OpenSliceRequest = { slice, vaultKey, raw: raw.slice(index * SLICE_SIZE, (index + 1) * SLICE_SIZE) };
      worker.postMessage(request);
    }
    if (signal?.aborted) return onAbort();
    for (let round = 0; round < IN_FLIGHT; round++) for (const worker of pool) send(worker);
  });
}
