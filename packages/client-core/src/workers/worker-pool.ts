import { isJobReply, type JobMessage } from './job-protocol';
import type { Transferable, WorkerPort } from './worker-port';

/** Workers cannot start or run here (tests, a platform without module workers, a script that failed to load). */
export class WorkerUnavailable extends Error {
  override readonly name = 'WorkerUnavailable';
  constructor() {
    super('Workers cannot run here.');
  }
}

/** One worker per core, at least two (WebCrypto works on its own threads too), at most four. */
export function poolSize(cores: number | undefined): number {
  return Math.min(4, Math.max(2, cores || 2));
}

export interface WorkerPoolOptions {
  /** Makes worker number `index` (from 0); may throw where workers cannot start. */
  spawn: (index: number) => WorkerPort;
  size: number;
  /** Jobs queued per worker, so a worker never waits for the page between two. Default 2. */
  inFlight?: number;
}

export interface RunOptions<Request, Answer, Event> {
  signal?: AbortSignal | undefined;
  /** Hears each answer as it arrives, with its index. */
  onAnswer?: (answer: Answer, index: number) => void;
  /** Hears the events a job emits before its answer. */
  onEvent?: (event: Event, index: number) => void;
  /** What a request hands over rather than copies. */
  transfer?: (request: Request) => readonly Transferable[];
}

let nextJob = 0;

/**
 * The one worker pool of every Lockit client: the vault list's decryption, the import's parse,
 * the export, the health report, a key rotation's re-encryption and the KDF all run their jobs
 * through it, over one protocol (job-protocol.ts). Workers start on first use (or `prewarm`)
 * and are kept until `terminate`; a worker that fails to load or run drops the whole pool and
 * the run rejects with WorkerUnavailable, so the caller does the work where it is
 * (inWorkersOrHere).
 */
export class WorkerPool<Request, Answer, Event = never> {
  readonly #options: WorkerPoolOptions;
  #workers: WorkerPort[] | null = null;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  /** Starts the workers ahead of need, so their scripts are loaded when the work arrives. Harmless where they cannot start. */
  prewarm(): void {
    try {
      this.#start();
    } catch {
      // The run falls back where it is.
    }
  }

  terminate(): void {
    for (const worker of this.#workers ?? []) worker.terminate();
    this.#workers = null;
  }

  /** One job: its answer. */
  async one(request: Request, options: RunOptions<Request, Answer, Event> = {}): Promise<Answer> {
    const [answer] = await this.run(1, () => request, options);
    return answer as Answer;
  }

  /**
   * Runs `count` jobs, built as they are sent (`build(index)`), `inFlight` per worker, and
   * resolves with the answers in the jobs' order. A failed job rejects with its message; an
   * abort with the signal's reason; a worker that cannot run with WorkerUnavailable.
   */
  async run(
    count: number,
    build: (index: number) => Request,
    options: RunOptions<Request, Answer, Event> = {},
  ): Promise<Answer[]> {
    let workers: WorkerPort[];
    try {
      workers = this.#start();
    } catch {
      throw new WorkerUnavailable();
    }
    try {
      return await this.#dispatch(workers, count, build, options);
    } catch (error) {
      if (error instanceof WorkerUnavailable) this.terminate();
      throw error;
    }
  }

  #start(): WorkerPort[] {
    if (this.#workers) return this.#workers;
    const started: WorkerPort[] = [];
    try {
      for (let index = 0; index < this.#options.size; index++) started.push(this.#options.spawn(index));
    } catch (error) {
      for (const worker of started) worker.terminate();
      throw error;
    }
    this.#workers = started;
    return started;
  }

  #dispatch(
    workers: WorkerPort[],
    count: number,
    build: (index: number) => Request,
    { signal, onAnswer, onEvent, transfer }: RunOptions<Request, Answer, Event>,
  ): Promise<Answer[]> {
    const results = new Array<Answer>(count);
    const pending = new Map<number, number>();
    let next = 0;
    let done = 0;
    return new Promise((resolve, reject) => {
      if (count === 0) return resolve(results);
      let finished = false;
      const removers = workers.map((worker) => {
        const onMessage = (event: { data: unknown }) => {
          const reply = event.data;
          if (!isJobReply(reply)) return;
          const index = pending.get(reply.job);
          // A job of an earlier, aborted run, or of another pool user: not this run's.
          if (index === undefined) return;
          if (reply.kind === 'event') return onEvent?.(reply.event as Event, index);
          pending.delete(reply.job);
          if (reply.kind === 'failure') return finish(new Error(reply.message));
          results[index] = reply.answer as Answer;
          done += 1;
          onAnswer?.(reply.answer as Answer, index);
          if (done === count) return finish(null);
          send(worker);
        };
        const onError = (event: { preventDefault(): void }) => {
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
      const onAbort = () => finish(signal?.reason ?? new Error('Aborted'));
      signal?.addEventListener('abort', onAbort);
      function finish(error: unknown) {
        if (finished) return;
        finished = true;
        for (const remove of removers) remove();
        signal?.removeEventListener('abort', onAbort);
        pending.clear();
        if (error === null) resolve(results);
        else reject(error);
      }
      function send(worker: WorkerPort) {
        if (next >= count || finished) return;
        const index = next++;
        const job = nextJob++;
        pending.set(job, index);
        const request = build(index);
        const message: JobMessage<Request> = { job, request };
        worker.postMessage(message, transfer?.(request) ?? []);
      }
      if (signal?.aborted) return onAbort();
      const inFlight = this.#options.inFlight ?? 2;
      for (let round = 0; round < inFlight; round++) for (const worker of workers) send(worker);
    });
  }
}

/**
 * The one fallback of every worker user: the work in workers when `useWorkers` (the platform
 * has them and the job is worth their start), else, or when they cannot run, where it is.
 * Any other failure is the work's own and is passed on.
 */
export async function inWorkersOrHere<T>(useWorkers: boolean, inWorkers: () => Promise<T>, here: () => Promise<T>): Promise<T> {
  if (useWorkers) {
    try {
      return await inWorkers();
    } catch (error) {
      if (!(error instanceof WorkerUnavailable)) throw error;
    }
  }
  return here();
}
