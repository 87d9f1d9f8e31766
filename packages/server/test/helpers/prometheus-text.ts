/**
 * A reader of the Prometheus text exposition format (version 0.0.4), as served at /metrics,
 * so tests check the bytes a scraper reads rather than the registry behind them. Hand-written:
 * no parser of the format is installed, and the format is small (HELP/TYPE comments, then one
 * `name{label="value",...} number` per line, label values escaped with \\, \" and \n).
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Metric family name → its TYPE (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  samples: Sample[];
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      else if (!/^# HELP \S+ /.test(line)) throw new Error(`line ${index + 1}: unknown comment: ${line}`);
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`line ${index + 1}: not a sample: ${line}`);
    samples.push({ name: match[1]!, labels: parseLabels(match[2] ?? '', index + 1), value: parseValue(match[3]!, index + 1) });
  }
  return { types, samples };
}

function parseLabels(text: string, lineNumber: number): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const start = LABEL.lastIndex;
    const match = LABEL.exec(text);
    if (!match) throw new Error(`line ${lineNumber}: bad labels at ${start}: ${text}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_all, escaped: string) => (escaped === 'n' ? '\n' : escaped));
  }
  return labels;
}

function parseValue(text: string, lineNumber: number): number {
  // As Prometheus reads them (Go's ParseFloat): any case; prom-client writes NaN as `Nan`.
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`line ${lineNumber}: bad value ${text}`);
  return value;
}

/** The samples named `name` whose labels include every one of `labels`. */
export function samplesOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return exposition.samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The value of the one sample named `name` with exactly these labels; undefined when absent. */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.keys(labels).length;
  return samplesOf(exposition, name, labels).find((sample) => Object.keys(sample.labels).length === wanted)?.value;
}
