import Papa from 'papaparse';
import { ImportFileError, type ImportFile } from '../import-format';
import { checkCsvBounds, CSV_LIMITS } from './csv-bounds';
import { decodeText } from './decode-text';

export interface CsvRecord {
  /** 1-based line of the file where the record starts (a quoted multi-line value spans more). */
  line: number;
  /**
   * The record's values by column name, as the header spells it. A row shorter than the header
   * has '' for its missing trailing columns. Every header name is an own key, "__proto__"
   * included; look columns up with findColumn/cellOf (or Object.hasOwn), not by a guessed name.
   */
  cells: Record<string, string>;
  /** The values as they stand in the row, extra ones past the header included. */
  raw: string[];
}

export interface CsvTable {
  /** Column names from the first row, case kept; a repeated name gets " (2)", " (3)"... */
  header: string[];
  records: CsvRecord[];
}

export interface ReadCsvOptions {
  /** ',' unless given; 'auto' lets papaparse guess among , ; tab and |. */
  delimiter?: string;
  /** How a quote inside a quoted value is written: '"' doubles it (RFC 4180, the default), '\\' escapes it (1Password 7 for Mac). */
  escapeChar?: '"' | '\\';
}

/**
 * Reads a CSV export: UTF-8 (BOM dropped), CRLF, LF or CR line ends, quoted values holding
 * delimiters, doubled quotes and line breaks (kept as '\n'), and a header row.
 *
 * Security invariant: nothing unbounded reaches papaparse. The file is refused, with the line,
 * past 50 MB, 100,000 records, 1,000 columns or a 1 MB value (checkCsvBounds runs first), so
 * a hostile file cannot exhaust the tab's memory. A quoted value that never closes is refused
 * (it would swallow the rest of the file); a stray quote inside a value is kept as text, as
 * Bitwarden's and Chrome's own readers do.
 */
export function readCsv(file: ImportFile, options: ReadCsvOptions = {}): CsvTable {
  // One line end everywhere: a note written on Windows keeps its lines as '\n', and a file
  // mixing CRLF and LF (seen after hand edits) still splits into the right rows.
  const text = decodeText(file).replace(/\r\n?/g, '\n');
  if (text.trim() === '') throw new ImportFileError('The file is empty.', null);
  const delimiter = chooseDelimiter(text, options.delimiter ?? ',');
  const escapeChar = options.escapeChar ?? '"';
  checkCsvBounds(text, delimiter, escapeChar);

  const rows: { line: number; raw: string[] }[] = [];
  let failure: ImportFileError | null = null;
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    delimiter,
    newline: '\n',
    quoteChar: '"',
    escapeChar,
    header: false,
    dynamicTyping: false,
    skipEmptyLines: false,
    step(result, parser) {
      const missingQuote = result.errors.find((error) => error.code === 'MissingQuotes');
      if (missingQuote) {
        failure = new ImportFileError(
          `Line ${line}: a quoted value is never closed (a " is missing), so the rest of the file cannot be read.`,
          line,
        );
        parser.abort();
        return;
      }
      rows.push({ line, raw: result.data });
      const end = result.meta.cursor;
      line += countNewlines(text, start, end);
      start = end;
    },
  });
  if (failure) throw failure;
  // A trailing line end gives papaparse one last empty row that is no record of the file.
  const last = rows.at(-1);
  if (rows.length > 1 && last && last.raw.length === 1 && last.raw[0] === '' && text.endsWith('\n')) rows.pop();

  const [headerRow, ...dataRows] = rows;
  if (!headerRow) throw new ImportFileError('The file is empty.', null);
  const header = uniqueNames(headerRow.raw.map((name) => name.trim()));
  const records = dataRows.map(({ line: recordLine, raw }) => {
    if (raw.length > CSV_LIMITS.columns) {
      throw new ImportFileError(`Line ${recordLine}: the row has more than ${CSV_LIMITS.columns} columns.`, recordLine);
    }
    // A plain object (a null-prototype one is a slow dictionary in V8: 100,000 rows took
    // seconds); "__proto__" is defined as an own key so a column of that name cannot set the
    // prototype.
    const cells: Record<string, string> = {};
    header.forEach((name, index) => {
      if (name === '__proto__') Object.defineProperty(cells, name, { value: raw[index] ?? '', enumerable: true, writable: true });
      else cells[name] = raw[index] ?? '';
    });
    return { line: recordLine, cells, raw };
  });
  return { header, records };
}

/** The header's name for `wanted`, compared case-insensitively and trimmed; undefined if absent. */
export function findColumn(header: readonly string[], ...wanted: string[]): string | undefined {
  let index = columnIndexes.get(header);
  if (index === undefined) {
    index = new Map();
    for (const column of header) if (!index.has(column.toLowerCase())) index.set(column.toLowerCase(), column);
    columnIndexes.set(header, index);
  }
  for (const name of wanted) {
    const found = index.get(name.trim().toLowerCase());
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Each header's lower-case names, built once: importers look columns up per cell of 100,000 rows. */
const columnIndexes = new WeakMap<readonly string[], Map<string, string>>();

/** The record's value in the first of `wanted` columns the header has (case-insensitive); '' if none. */
export function cellOf(table: Pick<CsvTable, 'header'>, record: CsvRecord, ...wanted: string[]): string {
  const column = findColumn(table.header, ...wanted);
  return column === undefined ? '' : (record.cells[column] ?? '');
}

/** Whether every value of the record is empty or spaces (a blank line, or a row of commas). */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.raw.every((value) => value.trim() === '');
}

/** Values past the header's last column (a row with more fields than the header). */
export function extraValues(table: Pick<CsvTable, 'header'>, record: CsvRecord): string[] {
  return record.raw.slice(table.header.length);
}

function chooseDelimiter(text: string, wanted: string): string {
  if (wanted !== 'auto') return wanted;
  const sample = text.slice(0, 64 * 1024);
  const guess = Papa.parse<string[]>(sample, { preview: 10, newline: '\n', delimitersToGuess: [',', ';', '\t', '|'] });
  return guess.meta.delimiter || ',';
}

function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const key = name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? name : `${name} (${count})`;
  });
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
