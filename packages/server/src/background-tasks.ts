import type { FastifyBaseLogger } from 'fastify';

/**
 * Work outside the request/answer cycle, run once after the answer is sent (mail, so answer
 * times do not depend on whether an account exists; scheduled jobs are in jobs/). A task's
 * failure is logged, never thrown. `drain` waits for what is still running; the app calls it
 * on close.
 */
export function createBackgroundTasks(log: FastifyBaseLogger) {
  const running = new Set<Promise<void>>();

  return {
    run(label: string, task: () => Promise<void>): void {
      const promise = task()
        .catch((error: unknown) => log.error({ err: error }, `${label} failed`))
        .finally(() => running.delete(promise));
      running.add(promise);
    },

    /**
     * Waits for running tasks, at most `timeoutMs` when given: shutdown must fit its grace
     * even when a task hangs (a mail server that never answers). Resolves with how many
     * tasks were still running and are left behind (0 when all finished).
     */
    async drain(timeoutMs?: number): Promise<number> {
      let timer: NodeJS.Timeout | undefined;
      const outOfTime = new Promise<'timeout'>((resolve) => {
        if (timeoutMs !== undefined) timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        while (running.size > 0) {
          if ((await Promise.race([Promise.allSettled([...running]), outOfTime])) === 'timeout') break;
        }
      } finally {
        clearTimeout(timer);
      }
      if (running.size > 0) log.warn({ tasks: running.size }, 'background tasks still running at close were left behind');
      return running.size;
    },
  };
}

export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
