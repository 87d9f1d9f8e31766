import type { FastifyBaseLogger } from 'fastify';

/**
 * Work outside the request/answer cycle: once after the answer is sent (mail, so answer times
 * do not depend on whether an account exists), or on an interval (the trash purge). A task's
 * failure is logged, never thrown. `stop` ends the intervals; `drain` waits for what is still
 * running; the app calls both on close.
 */
export function createBackgroundTasks(log: FastifyBaseLogger) {
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();

  function run(label: string, task: () => Promise<void>): Promise<void> {
    const promise = task()
      .catch((error: unknown) => log.error({ err: error }, `${label} failed`))
      .finally(() => running.delete(promise));
    running.add(promise);
    return promise;
  }

  return {
    run(label: string, task: () => Promise<void>): void {
      void run(label, task);
    },

    /**
     * Runs `task` now and then every `everyMs`, never two runs at once (a tick that finds the
     * last run still going is skipped). Resolves when the first run is done. The timer does
     * not keep the process alive.
     */
    repeat(label: string, everyMs: number, task: () => Promise<void>): Promise<void> {
      let current: Promise<void> | undefined;
      const tick = () => {
        current ??= run(label, task).finally(() => {
          current = undefined;
        });
        return current;
      };
      const timer = setInterval(() => void tick(), everyMs);
      timer.unref();
      timers.add(timer);
      return tick();
    },

    stop(): void {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
    },

    async drain(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
