import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/**
 * Runs `work` under a V8 CPU profile of the page when `dir` is set (a bench's *_PROFILE
 * variable), written to `<dir>/<name>.cpuprofile` for profile-summary.ts. Profiling slows the
 * page; the figures of a profiled run are not comparable with an unprofiled one.
 */
export async function profiled<T>(page: Page, dir: string | undefined, name: string, work: () => Promise<T>): Promise<T> {
  if (!dir) return work();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/${name}.cpuprofile`, JSON.stringify(profile));
    await cdp.detach();
  }
}
