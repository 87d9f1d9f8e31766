interface SchedulerWithYield {
  yield(): Promise<void>;
}

/**
 * Lets the browser paint and handle input between slices of long work. scheduler.yield()
 * (Chromium) resumes ahead of other queued tasks; elsewhere a zero timeout does the job.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<SchedulerWithYield> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
