import { describe, expect, it } from 'vitest';
import { CatchUpRuns } from './catch-up-runs';

/** A catch-up the test ends by hand, counting how often one started. */
function manualTasks() {
  const started: Array<{ resolve: (value: string) => void; reject: (error: Error) => void }> = [];
  const task = () =>
    new Promise<string>((resolve, reject) => {
      started.push({ resolve, reject });
    });
  return { started, task };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('catch-up runs', () => {
  it('share one running catch-up among callers that ask while it runs', async () => {
    const runs = new CatchUpRuns<string>();
    const { started, task } = manualTasks();
    const first = runs.run(task);
    const second = runs.run(task);
    await settle();
    expect(started).toHaveLength(1);
    started[0]!.resolve('read once');
    expect(await first).toBe('read once');
    expect(await second).toBe('read once');
  });

  it('give a caller told of a change a catch-up started after the running one ended, not the running one', async () => {
    const runs = new CatchUpRuns<string>();
    const { started, task } = manualTasks();
    const beforeWrite = runs.run(task);
    await settle();
    runs.changed();
    const afterWrite = runs.run(task);
    await settle();
    // Still one: the second waits, so two catch-ups never move the cursor at once.
    expect(started).toHaveLength(1);
    started[0]!.resolve('read before the write');
    expect(await beforeWrite).toBe('read before the write');
    await settle();
    expect(started).toHaveLength(2);
    started[1]!.resolve('read after the write');
    expect(await afterWrite).toBe('read after the write');
  });

  it('let a caller after the change join the fresh catch-up, and start anew once none runs', async () => {
    const runs = new CatchUpRuns<string>();
    const { started, task } = manualTasks();
    void runs.run(task);
    runs.changed();
    const fresh = runs.run(task);
    const joined = runs.run(task);
    await settle();
    started[0]!.resolve('old');
    await settle();
    started[1]!.resolve('new');
    expect(await fresh).toBe('new');
    expect(await joined).toBe('new');
    expect(started).toHaveLength(2);
    const later = runs.run(task);
    await settle();
    expect(started).toHaveLength(3);
    started[2]!.resolve('later');
    expect(await later).toBe('later');
  });

  it('pass a failed catch-up to those who shared it, and still run the next one', async () => {
    const runs = new CatchUpRuns<string>();
    const { started, task } = manualTasks();
    const failing = runs.run(task);
    const sharing = runs.run(task);
    runs.changed();
    const next = runs.run(task);
    await settle();
    started[0]!.reject(new Error('refused'));
    await expect(failing).rejects.toThrow('refused');
    await expect(sharing).rejects.toThrow('refused');
    await settle();
    started[1]!.resolve('caught up');
    expect(await next).toBe('caught up');
  });
});
