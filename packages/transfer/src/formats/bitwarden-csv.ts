import { hasColumns, peekCsvHeader } from '../csv/peek-header';
import { cellOf, isBlankRecord, readCsv, type CsvRecord, type CsvTable } from '../csv/read-csv';
import { TAGS_FIELD_LABEL } from '../export/bitwarden-json';
import { ImportFileError, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import type { TransferField, TransferItem } from '../transfer-item';
import { emptyTransferItem } from '../transfer-item';
import { isTruthy, loginOrNote, nameFor } from './item-rules';

/**
 * Bitwarden's CSV export: `folder,favorite,type,name,notes,fields,[reprompt,]login_uri,
 * login_username,login_password,login_totp` (older exports have no `reprompt`). Several web
 * addresses are comma-joined in login_uri; custom fields are "label: value" lines in `fields`.
 */
const REQUIRED = ['type', 'name', 'login_username', 'login_password'] as const;

/** "label: value" lines as custom fields; Lockit's "Tags: a, b" line as tags. */
export function parseFieldLines(text: string): { fields: TransferField[]; tags: string[] } {
  const fields: TransferField[] = [];
  let tags: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(': ');
    const label = colon === -1 ? line.trim() : line.slice(0, colon).trim();
    const value = colon === -1 ? '' : line.slice(colon + 2);
    if (label === TAGS_FIELD_LABEL)
      tags = value
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== '');
    else fields.push({ label: label || 'Field', kind: 'text', value });
  }
  return { fields, tags };
}

function itemOf(table: CsvTable, record: CsvRecord): TransferItem {
  const cell = (name: string) => cellOf(table, record, name);
  const type = cell('type').trim().toLowerCase();
  const name = cell('name');
  const login = {
    username: cell('login_username'),
    password: cell('login_password'),
    urls: cell('login_uri')
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== ''),
    totp: cell('login_totp'),
  };
  const hasLogin = login.username !== '' || login.password !== '' || login.urls.length > 0 || login.totp.trim() !== '';
  const item =
    type === 'note' && !hasLogin ? emptyTransferItem('note', nameFor(name, [], '')) : loginOrNote({ name, notes: '', ...login });
  item.notes = cell('notes');
  item.folder =
    cell('folder')
      .trim()
      .replace(/^\/+|\/+$/g, '') || null;
  item.favorite = isTruthy(cell('favorite'));
  const { fields, tags } = parseFieldLines(cell('fields'));
  item.fields = fields;
  item.tags = tags;
  return item;
}

export const bitwardenCsvFormat: ImportFormat = {
  id: 'bitwarden-csv',
  label: 'Bitwarden (CSV)',
  detect(file) {
    const header = peekCsvHeader(file);
    if (!header) return 0;
    return hasColumns(header, ...REQUIRED, 'login_uri') ? 1 : 0;
  },
  async parse(file, options): Promise<ParseResult> {
    const table = readCsv(file);
    const missing = REQUIRED.filter((name) => !hasColumns(table.header, name));
    if (missing.length > 0) {
      throw new ImportFileError(
        `Line 1: this is not a Bitwarden CSV export: the header has no ${missing.map((name) => `"${name}"`).join(', ')} column.`,
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
      items.push(itemOf(table, record));
    }
    options.onProgress?.(1);
    return { format: 'bitwarden-csv', items, skipped };
  },
};
