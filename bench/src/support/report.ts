import { cpus, loadavg, totalmem } from 'node:os';

export type Cell = string | number;

/** A plain-text table, columns padded, numbers right-aligned. */
export function printTable(title: string, header: string[], rows: Cell[][]): void {
  const cells = [header, ...rows.map((row) => row.map(format))];
  const widths = header.map((_, col) => Math.max(...cells.map((row) => (row[col] ?? '').toString().length)));
  const line = (row: Cell[]) =>
    row
      .map((cell, col) => {
        const text = cell.toString();
        return typeof rows[0]?.[col] === 'number' ? text.padStart(widths[col] ?? 0) : text.padEnd(widths[col] ?? 0);
      })
      .join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row));
}

function format(cell: Cell): Cell {
  if (typeof cell !== 'number') return cell;
  if (Number.isInteger(cell)) return cell;
  return Math.abs(cell) >= 100 ? Math.round(cell) : Number(cell.toFixed(Math.abs(cell) >= 10 ? 1 : 2));
}

/** The verdict column: the figure against its budget. */
export function verdict(ok: boolean): string {
  return ok ? 'meets' : 'MISSES';
}

export function describeMachine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const [one, five] = loadavg();
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${one?.toFixed(2)} (1 min) ${five?.toFixed(2)} (5 min)`;
}

export function printHeading(name: string): void {
  console.log(`\n=== ${name} — ${new Date().toISOString()}\n${describeMachine()}`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
