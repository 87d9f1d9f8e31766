import { readFileSync } from 'node:fs';

/**
 * Summarises Chromium traces of the search keys (BENCH_VAULT_TRACE): per key, the renderer
 * main thread's self time by stage (script, style, layout, paint, commit) in the window after
 * the key, so a slow key can be traced to the stage that takes its time; then, over every
 * key of every file, the thread's busy wall time and CPU time per key. CPU time leaves out
 * the time the thread waited for a core, so it compares two builds on a busy machine better
 * than the wall-clock figures of the bench do.
 * Usage: node --import tsx bench/src/trace-summary.ts [--quiet] [--keys=N] <trace.json>...
 * (--keys=N: only the first N keys of each trace, e.g. without the one clearing the box).
 */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) duration. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { type?: string } };
}
type Slice = TraceEvent & { dur: number };

/** The bench leaves 120 ms between keys; a key's frame is painted well within this. */
const WINDOW_US = 60_000;

const STAGES: [string, RegExp][] = [
  [
    'script',
    /^(FunctionCall|EventDispatch|TimerFire|FireAnimationFrame|FireIdleCallback|RunMicrotasks|v8\.|V8\.|MajorGC|MinorGC|HitTest)/,
  ],
  ['style', /^(UpdateLayoutTree|RecalculateStyles)/],
  ['layout', /^(Layout|UpdateLayout)/],
  ['paint', /^(PrePaint|Paint|Layerize|UpdateLayer)/],
  ['commit', /^Commit/],
];
const stageOf = (name: string) => STAGES.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';
const ms = (us: number) => (us / 1000).toFixed(1);

interface KeyCost {
  busyUs: number;
  cpuUs: number;
  byStage: Map<string, number>;
}

function keyCosts(file: string, keyCount: number): KeyCost[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const keydowns = events
    .filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown')
    .sort((a, b) => a.ts - b.ts)
    .slice(0, keyCount);
  const first = keydowns[0];
  if (!first) throw new Error(`${file}: no keydown in the trace: was it taken around the search keys?`);
  const slices = events
    .filter((e): e is Slice => e.pid === first.pid && e.tid === first.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);

  return keydowns.map((key) => {
    const byStage = new Map<string, number>();
    const stack: Slice[] = [];
    let busyUs = 0;
    let cpuUs = 0;
    for (const slice of slices) {
      if (slice.ts < key.ts - 1000 || slice.ts >= key.ts + WINDOW_US) continue;
      while (stack.length > 0 && slice.ts >= stack.at(-1)!.ts + stack.at(-1)!.dur) stack.pop();
      const parent = stack.at(-1);
      if (parent) byStage.set(stageOf(parent.name), (byStage.get(stageOf(parent.name)) ?? 0) - slice.dur);
      else {
        busyUs += slice.dur;
        cpuUs += slice.tdur ?? slice.dur;
      }
      byStage.set(stageOf(slice.name), (byStage.get(stageOf(slice.name)) ?? 0) + slice.dur);
      stack.push(slice);
    }
    return { busyUs, cpuUs, byStage };
  });
}

const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const keyCount = Number(args.find((arg) => arg.startsWith('--keys='))?.slice('--keys='.length) ?? Infinity);
const files = args.filter((arg) => !arg.startsWith('--'));
if (files.length === 0) throw new Error('usage: trace-summary.ts [--quiet] <trace.json>...');

const all: KeyCost[] = [];
for (const file of files) {
  const costs = keyCosts(file, keyCount);
  all.push(...costs);
  if (quiet) continue;
  console.log(file);
  for (const [i, cost] of costs.entries()) {
    const stages = [...cost.byStage].sort((a, b) => b[1] - a[1]).map(([stage, us]) => `${stage} ${ms(us)}`);
    console.log(`  key ${i + 1}: ${ms(cost.busyUs)} ms busy, ${ms(cost.cpuUs)} ms CPU | ${stages.join(', ')}`);
  }
}
const sorted = (pick: (cost: KeyCost) => number) => all.map(pick).sort((a, b) => a - b);
const at = (values: number[], p: number) =>
  values[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? Number.NaN;
for (const [label, values] of [
  ['busy', sorted((cost) => cost.busyUs)],
  ['CPU', sorted((cost) => cost.cpuUs)],
] as const) {
  console.log(
    `${all.length} keys, main thread ${label} per key (ms): median ${ms(at(values, 50))}, p95 ${ms(at(values, 95))}, max ${ms(at(values, 100))}`,
  );
}
