// Tests only: a worker that sums numbers, reports progress, fails on request and crashes on request.
import { serveJobs } from '../../src/workers/serve-jobs';
import { nodeWorkerScope } from './node-worker-port';

export type SumRequest = { numbers: number[] } | { fail: string } | { crash: true } | { bytes: ArrayBuffer };
export type SumAnswer = { sum: number; thread: number } | { length: number };

serveJobs<SumRequest, SumAnswer, number>(nodeWorkerScope(), async (request, emit) => {
  if ('fail' in request) throw new Error(request.fail);
  if ('crash' in request) setTimeout(() => process.exit(3), 0);
  if ('bytes' in request) return { answer: { length: request.bytes.byteLength } };
  if ('crash' in request) return new Promise(() => undefined);
  let sum = 0;
  for (const [index, value] of request.numbers.entries()) {
    sum += value;
    emit(index + 1);
  }
  const { threadId } = await import('node:worker_threads');
  return { answer: { sum, thread: threadId } };
});
