import type { EntryType } from '@lockit/contract';
import { isBlankRecord, readCsv, type CsvRecord, type CsvTable } from '../csv/read-csv';
import { ImportFileError, type ImportFile, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import type { TransferField, TransferItem } from '../transfer-item';
import { isTruthy, loginOrNote, ownValue } from './item-rules';

/**
 * Any other CSV, through a column mapping the person checks against example values. Each
 * TransferItem field names a column of the header (url may name several); every column left
 * unmapped that has a value in a row becomes a custom field of that row's item, so nothing is
 * dropped. The delimiter is guessed (, ; tab |): spreadsheets in many locales write ';'.
 */
export interface CsvMapping {
  name?: string;
  username?: string;
  password?: string;
  /** One or several columns, in order: each non-empty one is a web address. */
  url?: string[];
  notes?: string;
  totp?: string;
  folder?: string;
  /** Tags separated by commas or semicolons. */
  tags?: string;
  /** "1", "true", "yes", "x" mean a favourite. */
  favorite?: string;
  /** "login", "note", "card" or "identity" (anything else: login or note by content). */
  type?: string;
}

export interface CsvPreview {
  header: string[];
  /** The first five records' values, one array per record, aligned with the header. */
  examples: string[][];
  /** Records in the file (after the header). */
  records: number;
  /** The mapping guessed from the column names, for the person to check. */
  suggested: CsvMapping;
}

const readGeneric = (file: ImportFile): CsvTable => readCsv(file, { delimiter: 'auto' });

/** Column names that usually mean each field (lower case), first match wins. */
const GUESSES: Record<Exclude<keyof CsvMapping, 'url'>, string[]> = {
  name: ['name', 'title', 'account', 'service', 'site', 'item', 'entry'],
  username: ['username', 'user name', 'user', 'login', 'login_username', 'email', 'e-mail', 'login name'],
  password: ['password', 'pass', 'passwd', 'login_password', 'pwd'],
  notes: ['notes', 'note', 'comments', 'comment', 'extra', 'description'],
  totp: ['totp', 'otp', 'otpauth', 'one-time password', '2fa', 'mfa', 'login_totp'],
  folder: ['folder', 'group', 'grouping', 'category', 'path', 'vault'],
  tags: ['tags', 'tag', 'labels', 'label'],
  favorite: ['favorite', 'favourite', 'fav', 'starred'],
  type: ['type', 'kind', 'item type'],
};
const URL_GUESSES = ['url', 'urls', 'uri', 'website', 'web site', 'login_uri', 'address', 'link', 'domain', 'hostname'];

export function suggestMapping(header: readonly string[]): CsvMapping {
  const used = new Set<string>();
  const pick = (candidates: string[]) => {
    for (const candidate of candidates) {
      const column = header.find((name) => name.toLowerCase() === candidate && !used.has(name));
      if (column !== undefined) {
        used.add(column);
        return column;
      }
    }
    return undefined;
  };
  const mapping: CsvMapping = {};
  for (const key of ['password', 'totp', 'name', 'username', 'notes', 'folder', 'tags', 'favorite', 'type'] as const) {
    const column = pick(GUESSES[key]);
    if (column !== undefined) mapping[key] = column;
  }
  const url = pick(URL_GUESSES);
  if (url !== undefined) mapping.url = [url];
  return mapping;
}

/** The header, five example rows and a suggested mapping, for the mapping step. */
export function previewCsv(file: ImportFile): CsvPreview {
  const table = readGeneric(file);
  return {
    header: table.header,
    examples: table.records.slice(0, 5).map((record) => table.header.map((name) => record.cells[name] ?? '')),
    records: table.records.length,
    suggested: suggestMapping(table.header),
  };
}

function mappedColumns(mapping: CsvMapping): string[] {
  return Object.entries(mapping).flatMap(([, value]) =>
    Array.isArray(value) ? value : value === undefined ? [] : [value],
  ) as string[];
}

const TYPES: Record<string, EntryType> = {
  login: 'login',
  password: 'login',
  note: 'note',
  'secure note': 'note',
  securenote: 'note',
  card: 'card',
  'credit card': 'card',
  creditcard: 'card',
  identity: 'identity',
};

/** A column whose name says it holds a secret is imported as a hidden field. */
const SECRET_COLUMN = /pass|pin|secret|cvv|cvc|security code|private|token|key/i;

function itemOf(table: CsvTable, record: CsvRecord, mapping: CsvMapping, mapped: Set<string>): TransferItem {
  const get = (column: string | undefined) => (column === undefined ? '' : (record.cells[column] ?? ''));
  const item = loginOrNote({
    name: get(mapping.name),
    username: get(mapping.username),
    password: get(mapping.password),
    urls: (mapping.url ?? []).map((column) => get(column).trim()),
    notes: get(mapping.notes),
    totp: get(mapping.totp),
  });
  // The stated type is taken when nothing is lost by it: a login's values need a login.
  const stated = get(mapping.type).trim();
  const type = ownValue(TYPES, stated.toLowerCase());
  const hasLogin = item.type === 'login';
  const statedFields: TransferField[] = [];
  if (type !== undefined && (type === 'login' ? hasLogin : !hasLogin)) item.type = type;
  else if (stated !== '' && type !== item.type) statedFields.push({ label: mapping.type ?? 'Type', kind: 'text', value: stated });
  item.folder =
    get(mapping.folder)
      .trim()
      .replace(/^\/+|\/+$/g, '') || null;
  item.tags = get(mapping.tags)
    .split(/[,;]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  item.favorite = isTruthy(get(mapping.favorite));
  const fields: TransferField[] = statedFields;
  for (const column of table.header) {
    if (mapped.has(column)) continue;
    const value = record.cells[column] ?? '';
    if (value !== '') fields.push({ label: column || 'Field', kind: SECRET_COLUMN.test(column) ? 'hidden' : 'text', value });
  }
  // Values past the header's last column have no name: kept, numbered.
  record.raw.slice(table.header.length).forEach((value, index) => {
    if (value !== '') fields.push({ label: `Column ${table.header.length + index + 1}`, kind: 'text', value });
  });
  item.fields = fields;
  return item;
}

/** Reads any CSV with the person's mapping. Refuses a mapping naming a column the file lacks. */
export function parseMappedCsv(file: ImportFile, mapping: CsvMapping): ParseResult {
  const table = readGeneric(file);
  const columns = mappedColumns(mapping);
  const unknown = columns.filter((column) => !table.header.includes(column));
  if (unknown.length > 0) {
    throw new ImportFileError(
      `Line 1: the file has no column ${unknown.map((column) => `"${column}"`).join(', ')}; choose the columns again.`,
      1,
    );
  }
  const mapped = new Set(columns);
  const items: TransferItem[] = [];
  const skipped: SkippedRecord[] = [];
  const warnings: SkippedRecord[] = [];
  for (const record of table.records) {
    if (isBlankRecord(record)) {
      skipped.push({ line: record.line, reason: `Line ${record.line}: the row is empty.` });
      continue;
    }
    const item = itemOf(table, record, mapping, mapped);
    items.push(item);
    // A row that does not line up with the header (an unquoted comma, a cell too few) puts
    // values under the wrong names: the item is kept whole, and flagged for the person.
    const count = record.raw.length;
    if (count !== table.header.length) {
      warnings.push({
        line: record.line,
        reason: `Line ${record.line}: "${item.name.slice(0, 60)}" has ${count} ${count === 1 ? 'value' : 'values'} where the header has ${table.header.length} columns, so its values may sit under the wrong names. Check this item after the import, or fix the row in the file.`,
      });
    }
  }
  return { format: 'csv-mapped', items, skipped, warnings };
}

export const csvMappedFormat: ImportFormat = {
  id: 'csv-mapped',
  label: 'Other CSV (choose the columns)',
  /** Any readable CSV could be mapped: a low, constant score so a known format always wins. */
  detect(file) {
    const head = new TextDecoder()
      .decode(file.bytes.subarray(0, 4096))
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (head === '' || head.startsWith('{') || head.startsWith('[') || head.startsWith('<') || head.includes('\u0000')) return 0;
    return /[,;\t|]/.test(head.split('\n')[0] ?? '') ? 0.1 : 0;
  },
  /** Without a mapping of the person's own, the suggested one (previewCsv shows it first). */
  async parse(file, options) {
    const result = parseMappedCsv(file, suggestMapping(readGeneric(file).header));
    options.onProgress?.(1);
    return result;
  },
};
