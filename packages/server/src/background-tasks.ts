import type { FastifyBaseLogger } from 'fastify';

/**
 * Work done after the answer is sent (mail), so answer times do not depend on whether an
 * account exists. Close waits for what is still running.
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
    async drain(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
