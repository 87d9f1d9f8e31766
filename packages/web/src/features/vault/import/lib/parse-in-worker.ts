import { inWorkersOrHere, WorkerPool } from '@lockit/client-core';
import type { ParseResult } from '@lockit/transfer';
import { asWorkerPort } from '@/lib/page-worker';
import { parseRequest, resultOf } from './parse-file';
import type { ParseAnswer, ParseRequest } from './parse-protocol';

/**
 * Parses the file in a worker of its own (parse-worker.ts), ended once it answers: no
 * main-thread task while a 10,000-item file is parsed or a KDBX key derived, and the file and
 * its password leave memory with the worker. Where a worker cannot start (tests, a browser
 * without module workers) it parses on the page, the same way.
 */
export async function parseInWorker(request: ParseRequest, onProgress: (fraction: number) => void): Promise<ParseResult> {
  const answer = await inWorkersOrHere(
    typeof Worker !== 'undefined',
    async () => {
      const pool = new WorkerPool<ParseRequest, ParseAnswer, number>({
        spawn: () =>
          asWorkerPort(new Worker(new URL('./parse-worker.ts', import.meta.url), { type: 'module', name: 'lockit-import' })),
        size: 1,
      });
      try {
        return await pool.one(request, { onEvent: onProgress });
      } finally {
        pool.terminate();
      }
    },
    () => parseRequest(request, onProgress),
  );
  return resultOf(answer);
}
