import { afterEach, describe, expect, it } from 'vitest';
import { nodeWorkerPort } from '../../test/support/node-worker-port';
import type { SumAnswer, SumRequest } from '../../test/support/sum-worker';
import { inWorkersOrHere, poolSize, WorkerPool, WorkerUnavailable } from './worker-pool';

const workerFile = new URL('../../test/support/sum-worker.ts', import.meta.url);
const pools: WorkerPool<SumRequest, SumAnswer, number>[] = [];
function pool(size = 2) {
  const made = new WorkerPool<SumRequest, SumAnswer, number>({ spawn: () => nodeWorkerPort(workerFile), size });
  pools.push(made);
  return made;
}
afterEach(() => {
  for (const made of pools.splice(0)) made.terminate();
});

// Each test starts real Node threads that compile their worker through tsx: seconds, not
// milliseconds, when the machine runs the database suites beside this one.
describe('the client core’s worker pool', { timeout: 30_000 }, () => {
  it('spreads jobs over its workers in threads and answers in the jobs’ order', async () => {
    const slices = Array.from({ length: 12 }, (_, index) => [index, index, index]);
    const answers = await pool().run(slices.length, (index) => ({ numbers: slices[index]! }));
    expect(answers.map((answer) => ('sum' in answer ? answer.sum : -1))).toEqual(slices.map((slice) => slice[0]! * 3));
    expect(new Set(answers.map((answer) => ('thread' in answer ? answer.thread : 0))).size).toBe(2);
  });

  it('passes on the events a job emits before its answer', async () => {
    const events: number[] = [];
    await pool().one({ numbers: [5, 6, 7] }, { onEvent: (event) => events.push(event) });
    expect(events).toEqual([1, 2, 3]);
  });

  it('rejects with the failed job’s message and keeps the workers for the next run', async () => {
    const workers = pool();
    await expect(workers.one({ fail: 'That file is not a Bitwarden export.' })).rejects.toThrow(
      'That file is not a Bitwarden export.',
    );
    await expect(workers.one({ numbers: [1, 2] })).resolves.toMatchObject({ sum: 3 });
  });

  it('hands a transferred buffer over rather than copying it', async () => {
    const bytes = new Uint8Array(64).buffer;
    const answer = await pool().one({ bytes }, { transfer: (request) => ('bytes' in request ? [request.bytes] : []) });
    expect(answer).toEqual({ length: 64 });
    expect(bytes.byteLength).toBe(0);
  });

  it('rejects with WorkerUnavailable when a worker dies, and inWorkersOrHere then does the work here', async () => {
    const workers = pool();
    await expect(workers.one({ crash: true })).rejects.toBeInstanceOf(WorkerUnavailable);
    const here = await inWorkersOrHere(
      true,
      () => workers.one({ crash: true }).then(() => 'workers'),
      async () => 'here',
    );
    expect(here).toBe('here');
  });

  it('rejects with WorkerUnavailable when workers cannot start, and passes any other failure on', async () => {
    const unstartable = new WorkerPool<SumRequest, SumAnswer>({
      spawn: () => {
        throw new Error('module workers unsupported');
      },
      size: 2,
    });
    await expect(unstartable.one({ numbers: [1] })).rejects.toBeInstanceOf(WorkerUnavailable);
    await expect(
      inWorkersOrHere(
        true,
        () => Promise.reject(new Error('a slice failed')),
        async () => 'here',
      ),
    ).rejects.toThrow('a slice failed');
    await expect(
      inWorkersOrHere(
        false,
        () => Promise.resolve('workers'),
        async () => 'here',
      ),
    ).resolves.toBe('here');
  });

  it('stops a run on abort, and an answer of the aborted run is not taken for the next', async () => {
    const workers = pool(1);
    const controller = new AbortController();
    const run = workers.run(4, () => ({ numbers: Array.from({ length: 200_000 }, () => 1) }), { signal: controller.signal });
    controller.abort(new Error('left the page'));
    await expect(run).rejects.toThrow('left the page');
    await expect(workers.one({ numbers: [2, 2] })).resolves.toMatchObject({ sum: 4 });
  });

  it('sizes a pool at one worker per core, two to four', () => {
    expect([poolSize(undefined), poolSize(1), poolSize(3), poolSize(16)]).toEqual([2, 2, 3, 4]);
  });
});
