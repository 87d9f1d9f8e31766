/**
 * The one protocol between the page and every Lockit worker. A job goes out with a number; the
 * worker may send events for it (progress, partial results) and ends it with one answer or one
 * failure. Numbers are unique per pool, so an answer of an earlier, aborted run is never taken
 * for this one's.
 */
export interface JobMessage<Request> {
  job: number;
  request: Request;
}

export type JobReply<Answer, Event> =
  | { job: number; kind: 'event'; event: Event }
  | { job: number; kind: 'answer'; answer: Answer }
  /** Only the message crosses: an error's details stay in the worker (they may name secrets). */
  | { job: number; kind: 'failure'; message: string };

export function isJobReply(data: unknown): data is JobReply<unknown, unknown> {
  if (typeof data !== 'object' || data === null) return false;
  const { job, kind } = data as { job?: unknown; kind?: unknown };
  return typeof job === 'number' && (kind === 'event' || kind === 'answer' || kind === 'failure');
}
