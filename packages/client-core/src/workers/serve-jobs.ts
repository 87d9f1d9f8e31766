import { isJobReply, type JobMessage, type JobReply } from './job-protocol';
import type { Transferable, WorkerScope } from './worker-port';

export interface JobWork<Answer> {
  answer: Answer;
  /** Buffers the answer hands over rather than copies (they are unusable here afterwards). */
  transfer?: readonly Transferable[];
}

/**
 * A worker's side of the job protocol: runs `work` for each job it hears, passes on the events
 * it emits, and ends the job with its answer, or with the failure's message alone.
 *
 * Security invariant: a failure crosses as its message only; `work` must throw nothing whose
 * message holds a secret (the KDF and the import say only what a person may read).
 */
export function serveJobs<Request, Answer, Event = never>(
  scope: WorkerScope,
  work: (request: Request, emit: (event: Event) => void) => Promise<JobWork<Answer>>,
): void {
  scope.addEventListener('message', (event) => {
    const message = event.data as JobMessage<Request>;
    if (typeof message !== 'object' || message === null || typeof message.job !== 'number' || isJobReply(message)) return;
    const { job } = message;
    const reply = (data: JobReply<Answer, Event>, transfer?: readonly Transferable[]) => scope.postMessage(data, transfer);
    work(message.request, (emitted) => reply({ job, kind: 'event', event: emitted })).then(
      (done) => reply({ job, kind: 'answer', answer: done.answer }, done.transfer ?? []),
      (error: unknown) => reply({ job, kind: 'failure', message: error instanceof Error ? error.message : 'A worker failed.' }),
    );
  });
}
