import { readFileSync } from 'node:fs';
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
  /**
   * CPU time (user + system) the serving process spent per answered request, in µs, when
   * its pid was given: unlike requests/s, it does not depend on how much of the two cores the
   * load generator happened to leave the server. NaN without a pid.
   */
  cpuMicrosPerRequest: number;
}

export interface LoadOptions {
  /** The serving process, whose CPU time is read from /proc around the measured run. */
  pid?: number;
  /** Skip the warm-up (the target was just measured and is warm). */
  warm?: boolean;
}

/** autocannon at CONNECTIONS connections: a warm-up, then the measured run. */
export async function measureLoad(
  options: Omit<Options, 'connections' | 'duration'>,
  { pid, warm = false }: LoadOptions = {},
): Promise<LoadFigures> {
  if (!warm) await autocannon({ ...options, connections: CONNECTIONS, duration: Math.max(1, Math.round(DURATION / 4)) });
  const cpuBefore = pid === undefined ? Number.NaN : cpuSecondsOf(pid);
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
  const cpuSeconds = pid === undefined ? Number.NaN : cpuSecondsOf(pid) - cpuBefore;
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
    cpuMicrosPerRequest: (cpuSeconds * 1e6) / Math.max(1, result.requests.total),
  };
}

/** A process's user + system CPU seconds so far (Linux /proc; clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields from after its closing paren.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime: fields 14 and 15
  return ticks / 100;
}
