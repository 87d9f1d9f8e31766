import { afterEach, describe, expect, it, vi } from 'vitest';
import { prewarmHealthWorker, runHealthReport } from './health-client';

/** Records the workers made and what the page posts them. */
class RecordingWorker extends EventTarget {
  static made: RecordingWorker[] = [];
  readonly posted: unknown[] = [];
  constructor(
    readonly url: URL | string,
    readonly options?: WorkerOptions,
  ) {
    super();
    RecordingWorker.made.push(this);
  }
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('the health worker', () => {
  it('is started and asked to load zxcvbn ahead of the report, then serves the report itself', async () => {
    vi.stubGlobal('Worker', RecordingWorker);
    prewarmHealthWorker();
    expect(RecordingWorker.made).toHaveLength(1);
    const [worker] = RecordingWorker.made;
    expect(worker!.options?.name).toBe('lockit-health');
    expect(worker!.posted).toEqual([{ warm: true }]);

    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const callbacks = { onFacts: vi.fn(), onBreaches: vi.fn(), onBreachFailed: vi.fn(), onFailed: vi.fn() };
    const stop = runHealthReport({ vaultKey: key, now: 0, items: [] }, null, callbacks);
    await vi.waitFor(() => expect(worker!.posted).toHaveLength(2));
    expect(RecordingWorker.made).toHaveLength(1);
    expect(worker!.posted[1]).toMatchObject({ done: true, items: [] });
    stop();
  });
});
