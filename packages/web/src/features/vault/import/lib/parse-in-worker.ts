import type { ParseResult } from '@lockit/transfer';
import { parseRequest, resultOf } from './parse-file';
import type { ParseAnswer, ParseMessage, ParseRequest } from './parse-protocol';

class WorkerUnavailable extends Error {}

/**
 * Parses the file in a worker of its own (parse-worker.ts), ended once it answers: no
 * main-thread task while a 10,000-item file is parsed or a KDBX key derived. Where a worker
 * cannot start (tests, a browser without module workers) it parses on the page, the same way.
 */
export async function parseInWorker(request: ParseRequest, onProgress: (fraction: number) => void): Promise<ParseResult> {
  if (typeof Worker !== 'undefined') {
    try {
      return resultOf(await runInWorker(request, onProgress));
    } catch (error) {
      if (!(error instanceof WorkerUnavailable)) throw error;
    }
  }
  return resultOf(await parseRequest(request, onProgress));
}

function runInWorker(request: ParseRequest, onProgress: (fraction: number) => void) {
  return new Promise<ParseAnswer>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./parse-worker.ts', import.meta.url), { type: 'module', name: 'lockit-import' });
    } catch {
      reject(new WorkerUnavailable());
      return;
    }
    worker.onmessage = (event: MessageEvent<ParseMessage>) => {
      const message = event.data;
      if (message.kind === 'progress') return onProgress(message.fraction);
      worker.terminate();
      resolve(message);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new WorkerUnavailable());
    };
    worker.postMessage(request);
  });
}
