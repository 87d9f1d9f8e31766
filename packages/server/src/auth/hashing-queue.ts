import { availableParallelism } from 'node:os';
import PQueue from 'p-queue';
import { HttpError } from '../http/http-error';

export const SERVER_BUSY = 'The server is busy. Try again in a moment.';
/** Seconds a refused client is told to wait: a full queue drains in about that long. */
export const SERVER_BUSY_RETRY_AFTER_SECONDS = 2;

/** libuv's thread pool: Node's default is 4 threads unless UV_THREADPOOL_SIZE says otherwise. */
export function uvThreadpoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number.parseInt(env.UV_THREADPOOL_SIZE ?? '', 10);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

/**
 * Argon2 jobs at once by default: one thread of libuv's pool always stays free for file
 * reads (static files, SQLite is synchronous), DNS and zlib, and no more jobs than cores,
 * since each one keeps a core busy for its whole run.
 */
export function defaultHashingConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  return Math.max(1, Math.min(uvThreadpoolSize(env) - 1, availableParallelism()));
}

export interface HashingLimits {
  /** Argon2 jobs run at once. */
  concurrency: number;
  /** Jobs that may wait for a free slot; one more is refused with 503 before it hashes. */
  maxQueued: number;
}

/**
 * Bounds Argon2 work (sign-in verify, sign-up and change-password hash). Each job holds a
 * libuv thread and a core for tens of milliseconds; unbounded, a flood of sign-ins took every
 * thread, so static files and every other request queued behind it for seconds. Jobs past
 * `concurrency` wait in order; past `maxQueued` waiting, the request is refused at once with
 * 503 and Retry-After, before any hashing, so a flood costs the server a bounded amount.
 */
export function createHashingQueue(limits: HashingLimits) {
  const queue = new PQueue({ concurrency: limits.concurrency });
  let maxQueued = limits.maxQueued;
  let refused = 0;
  return {
    /** Runs `job` in turn; throws a 503 HttpError, without running it, when the queue is full. */
    run<T>(job: () => Promise<T>): Promise<T> {
      if (queue.size >= maxQueued) {
        refused += 1;
        return Promise.reject(
          new HttpError(503, SERVER_BUSY, { headers: { 'retry-after': String(SERVER_BUSY_RETRY_AFTER_SECONDS) } }),
        );
      }
      return queue.add(job);
    },
    /** New limits for jobs still to come (the pool is per process, the config per app). */
    setLimits(next: HashingLimits): void {
      queue.concurrency = next.concurrency;
      maxQueued = next.maxQueued;
    },
    /** Jobs running, waiting, and refused so far (for metrics and tests). */
    get stats() {
      return { running: queue.pending, waiting: queue.size, refused };
    },
  };
}

export type HashingQueue = ReturnType<typeof createHashingQueue>;
