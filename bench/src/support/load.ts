import autocannon, { type Options } from 'autocannon';

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Seconds per measurement (after a warm-up of a quarter of it). */
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, errors and timeouts, by status: a bench that trips a limit says so. */
  failures: string;
  total: number;
}

/** autocannon at CONNECTIONS connections: a warm-up, then the measured run. */
export async function measureLoad(options: Omit<Options, 'connections' | 'duration'>): Promise<LoadFigures> {
  await autocannon({ ...options, connections: CONNECTIONS, duration: Math.max(1, Math.round(DURATION / 4)) });
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count}×${code}`);
  if (result.errors) statuses.push(`${result.errors} errors`);
  if (result.timeouts) statuses.push(`${result.timeouts} timeouts`);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: statuses.join(', ') || 'none',
    total: result.requests.total,
  };
}
