import Papa from 'papaparse';
import type { ImportFile } from '../import-format';

/**
 * The first row of a file read as CSV, for detection: only the first 16 kB are decoded (a
 * 50 MB file is not read to guess its format). Null when that is not a CSV row of at least two
 * columns (binary, JSON, XML, or text without a delimiter). Names are trimmed, case kept.
 */
export function peekCsvHeader(file: ImportFile): string[] | null {
  const head = new TextDecoder('utf-8').decode(file.bytes.subarray(0, 16 * 1024)).replace(/^\uFEFF/, '');
  const firstChar = head.trimStart()[0];
  if (firstChar === undefined || firstChar === '{' || firstChar === '[' || firstChar === '<' || head.includes('\u0000'))
    return null;
  const parsed = Papa.parse<string[]>(head.replace(/\r\n?/g, '\n'), { preview: 1, newline: '\n', delimiter: ',' });
  const row = parsed.data[0];
  if (!row || row.length < 2) return null;
  return row.map((name) => name.trim());
}

/** Whether `header` has every one of `names` (case-insensitive). */
export function hasColumns(header: readonly string[], ...names: string[]): boolean {
  const lower = new Set(header.map((name) => name.toLowerCase()));
  return names.every((name) => lower.has(name.toLowerCase()));
}
