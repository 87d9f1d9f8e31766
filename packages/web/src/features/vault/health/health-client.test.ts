import { afterEach, describe, expect, it, vi } from 'vitest';
import { prewarmHealthWorker, runHealthReport } from './health-client';

/** Records the workers made and what the page posts them; answers each job at once. */
class RecordingWorker extends EventTarget {
  static made: RecordingWorker[] = [];
  readonly posted: Array<{ job: number; request: unknown }> = [];
  constructor(
    readonly url: URL | string,
    readonly options?: WorkerOptions,
  ) {
    super();
    RecordingWorker.made.push(this);
  }
  postMessage(message: { job: number; request: unknown }): void {
    this.posted.push(message);
    queueMicrotask(() =>
      this.dispatchEvent(new MessageEvent('message', { data: { job: message.job, kind: 'answer', answer: null } })),
    );
  }
  terminate(): void {}
}

afterEach(() => vi.unstubAllGlobals());

describe('the health worker', () => {
  it('is started and asked to load zxcvbn ahead of the report, then serves the report itself, one slice per job', async () => {
    vi.stubGlobal('Worker', RecordingWorker);
    prewarmHealthWorker();
    expect(RecordingWorker.made).toHaveLength(1);
    const [worker] = RecordingWorker.made;
    expect(worker!.options?.name).toBe('lockit-health');
    expect(worker!.posted.map((message) => message.request)).toEqual([{ warm: true }]);

    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const callbacks = { onFacts: vi.fn(), onBreaches: vi.fn(), onBreachFailed: vi.fn(), onFailed: vi.fn() };
    const items = Array.from({ length: 1500 }, (_, n) => ({ id: `i${n}` })) as never[];
    const stop = runHealthReport({ vaultKey: key, now: 0, items }, null, callbacks);
    await vi.waitFor(() => expect(worker!.posted).toHaveLength(3));
    expect(RecordingWorker.made).toHaveLength(1);
    expect(worker!.posted[1]!.request).toMatchObject({ done: false });
    expect(worker!.posted[2]!.request).toMatchObject({ done: true });
    expect((worker!.posted[2]!.request as { items: unknown[] }).items).toHaveLength(500);
    stop();
    expect(callbacks.onFailed).not.toHaveBeenCalled();
  });
});
