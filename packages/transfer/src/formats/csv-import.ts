import { peekCsvHeader } from '../csv/peek-header';
import { extraValues, isBlankRecord, readCsv, type CsvRecord, type CsvTable, type ReadCsvOptions } from '../csv/read-csv';
import { ImportFileError, type ImportFormat, type ImportFormatId, type SkippedRecord } from '../import-format';
import type { TransferField, TransferItem } from '../transfer-item';
import { fieldOf, hasContent } from './item-rules';

/**
 * One row of a manager's CSV export, as a format's mapping sees it. Every column the mapping
 * reads (or deliberately ignores) is marked; `rest()` gives the others that hold a value as
 * custom fields, so a column a later export adds is kept, never silently dropped.
 */
export interface CsvRow {
  line: number;
  /** The file's column names, as its header spells them. */
  header: readonly string[];
  /** The value of the first of `names` the header has (case-insensitive); '' if none. Marks them read. */
  cell(...names: string[]): string;
  /** Every column whose name matches, marked read: for families like "SECTION 1: ...". */
  columns(test: (name: string) => boolean): { name: string; value: string }[];
  /** The values past the header's last column, marked read (RoboForm writes its fields there). */
  extra(): string[];
}

export interface CsvFormatSpec {
  id: ImportFormatId;
  label: string;
  /** How sure the format is from the header alone (exact column sets score 1). */
  detect(header: string[]): number;
  /** Columns without which the file is not this export (named in the error). */
  required: string[];
  /** Columns never kept, each for a stated reason in the format's file (internal ids, icon numbers). */
  ignored?: string[];
  /** The item of a row, or the reason the row is not one. */
  toItem(row: CsvRow): TransferItem | { skip: string };
  /**
   * Keep a row that has a name and nothing else. Only for a manager that lets a person save
   * such an item on purpose (Bitwarden does), so it comes back as it was saved.
   */
  keepNameOnly?: boolean;
  /** How to read the file, chosen from its header (1Password 7 for Mac escapes quotes with a backslash). */
  readOptions?: (header: readonly string[]) => ReadCsvOptions;
}

/** Whether `header` has every `required` column and nothing outside `required` + `optional` (case-insensitive). */
export function hasExactColumns(
  header: readonly string[],
  required: readonly string[],
  optional: readonly string[] = [],
): boolean {
  const names = new Set(header.map((name) => name.toLowerCase()).filter((name) => name !== ''));
  const allowed = new Set([...required, ...optional].map((name) => name.toLowerCase()));
  return required.every((name) => names.has(name.toLowerCase())) && [...names].every((name) => allowed.has(name));
}

export function defineCsvFormat(spec: CsvFormatSpec): ImportFormat {
  return {
    id: spec.id,
    label: spec.label,
    detect(file) {
      const header = peekCsvHeader(file);
      return header ? spec.detect(header) : 0;
    },
    async parse(file, options) {
      const header = spec.readOptions ? peekCsvHeader(file) : null;
      const table = readCsv(file, header && spec.readOptions ? spec.readOptions(header) : {});
      const lower = new Set(table.header.map((name) => name.toLowerCase()));
      const missing = spec.required.filter((name) => !lower.has(name.toLowerCase()));
      if (missing.length > 0) {
        throw new ImportFileError(
          `Line 1: this is not a ${spec.label} export: the header has no ${missing.map((name) => `"${name}"`).join(', ')} column.`,
          1,
        );
      }
      const items: TransferItem[] = [];
      const skipped: SkippedRecord[] = [];
      for (const record of table.records) {
        if (isBlankRecord(record)) {
          skipped.push({ line: record.line, reason: `Line ${record.line}: the row is empty.` });
          continue;
        }
        const { row, rest } = rowOf(table, record, spec.ignored ?? []);
        const result = spec.toItem(row);
        if ('skip' in result) {
          skipped.push({ line: record.line, reason: `Line ${record.line}: ${result.skip}` });
          continue;
        }
        result.fields.push(...rest());
        if (!hasContent(result, spec.keepNameOnly === true)) {
          skipped.push({ line: record.line, reason: `Line ${record.line}: "${result.name}" has nothing in it but its name.` });
          continue;
        }
        items.push(result);
      }
      options.onProgress?.(1);
      return { format: spec.id, items, skipped };
    },
  };
}

/**
 * A record as a CsvRow, and `rest()`: the columns the mapping never read that hold a value, as
 * custom fields (values past the header named by their column number). For formats that read
 * their rows themselves.
 */
export function rowOf(table: CsvTable, record: CsvRecord, ignored: string[]): { row: CsvRow; rest: () => TransferField[] } {
  const read = new Set(ignored.map((name) => name.toLowerCase()));
  const find = (name: string) => table.header.find((column) => column.toLowerCase() === name.toLowerCase());
  const row: CsvRow = {
    line: record.line,
    header: table.header,
    cell(...names) {
      for (const name of names) read.add(name.toLowerCase());
      for (const name of names) {
        const column = find(name);
        if (column !== undefined) return record.cells[column] ?? '';
      }
      return '';
    },
    columns(test) {
      return table.header
        .filter((name) => test(name))
        .map((name) => {
          read.add(name.toLowerCase());
          return { name, value: record.cells[name] ?? '' };
        });
    },
    extra() {
      extraRead = true;
      return extraValues(table, record);
    },
  };
  let extraRead = false;
  const rest = (): TransferField[] => [
    ...table.header.filter((name) => !read.has(name.toLowerCase())).flatMap((name) => fieldOf(name, record.cells[name] ?? '')),
    ...(extraRead
      ? []
      : extraValues(table, record).flatMap((value, index) => fieldOf(`Column ${table.header.length + index + 1}`, value))),
  ];
  return { row, rest };
}
