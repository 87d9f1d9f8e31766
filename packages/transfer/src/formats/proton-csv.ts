import { hasColumns, peekCsvHeader } from '../csv/peek-header';
import { isBlankRecord, readCsv } from '../csv/read-csv';
import { ImportFileError, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import { emptyTransferItem, type TransferItem } from '../transfer-item';
import { rowOf, type CsvRow } from './csv-import';
import { isoDate, loginOrNote, nameFor } from './item-rules';
import { isObject, protonCard, protonIdentity, protonOtherAsNote } from './proton-items';

/**
 * Proton Pass's CSV export (ProtonMail/WebClients packages/pass/lib/import/providers/protonpass):
 * `type,name,url,email,username,password,note,totp,createTime,modifyTime,vault`. Older exports
 * have no `email` (then `username` holds the email) or no `vault`. Several addresses are joined
 * with ", " in `url`; a card's or an identity's details are JSON in `note`; times are Unix seconds.
 */
const REQUIRED = ['name', 'url', 'username', 'password', 'note', 'totp'] as const;

function itemOf(row: CsvRow, skipped: SkippedRecord[]): TransferItem {
  const cell = (name: string) => row.cell(name);
  const type = cell('type').trim();
  const name = cell('name');
  let item: TransferItem;
  if (type === 'creditCard' || type === 'identity') {
    let content: unknown = null;
    try {
      content = JSON.parse(cell('note'));
    } catch {
      content = null;
    }
    if (isObject(content)) {
      item = type === 'creditCard' ? protonCard(name, content) : protonIdentity(name, content);
      if (type === 'creditCard') item.notes = typeof content.note === 'string' ? content.note : '';
    } else {
      // Details that are not JSON are kept as they stand, in a note.
      item = emptyTransferItem('note', nameFor(name, [], ''));
      item.notes = cell('note');
      skipped.push({
        line: row.line,
        reason: `Line ${row.line}: the ${type === 'creditCard' ? 'card' : 'identity'} details could not be read, so "${item.name}" was kept as a note with them as text.`,
      });
    }
  } else if (type === 'alias') {
    // An alias is a Proton forwarding address: there is no alias in Lockit, the address is kept.
    // The older layout has no email column and writes the address under username.
    const email = cell('email');
    const username = cell('username');
    item = protonOtherAsNote(name, 'alias', { aliasEmail: email !== '' ? email : username });
    if (email !== '' && username !== '' && username !== email)
      item.fields.push({ label: 'Username', kind: 'text', value: username });
    item.notes = cell('note');
  } else if (type === '' || type === 'login' || type === 'note') {
    const hasEmailColumn = hasColumns(row.header, 'email');
    const email = hasEmailColumn ? cell('email') : '';
    const username = cell('username') !== '' ? cell('username') : email;
    item = loginOrNote({
      name,
      username,
      password: cell('password'),
      urls: cell('url')
        .split(', ')
        .map((url) => url.trim())
        .filter((url) => url !== ''),
      notes: cell('note'),
      totp: cell('totp'),
    });
    if (email !== '' && email !== username) item.fields.push({ label: 'Email', kind: 'text', value: email });
  } else {
    item = protonOtherAsNote(name, type, {});
    item.notes = cell('note');
  }
  item.folder = cell('vault').trim() || null;
  item.createdAt = isoDate(cell('createTime'));
  item.updatedAt = isoDate(cell('modifyTime'));
  return item;
}

export const protonCsvFormat: ImportFormat = {
  id: 'proton-csv',
  label: 'Proton Pass (CSV)',
  detect(file) {
    const header = peekCsvHeader(file);
    if (!header || !hasColumns(header, ...REQUIRED)) return 0;
    return hasColumns(header, 'type') || hasColumns(header, 'vault') || hasColumns(header, 'createTime') ? 1 : 0.8;
  },
  async parse(file, options): Promise<ParseResult> {
    const table = readCsv(file);
    const missing = REQUIRED.filter((name) => !hasColumns(table.header, name));
    if (missing.length > 0) {
      throw new ImportFileError(
        `Line 1: this is not a Proton Pass CSV export: the header has no ${missing.map((name) => `"${name}"`).join(', ')} column.`,
        1,
      );
    }
    const items: TransferItem[] = [];
    const skipped: SkippedRecord[] = [];
    for (const record of table.records) {
      if (isBlankRecord(record)) skipped.push({ line: record.line, reason: `Line ${record.line}: the row is empty.` });
      else {
        const { row, rest } = rowOf(table, record, []);
        const item = itemOf(row, skipped);
        item.fields.push(...rest());
        items.push(item);
      }
    }
    options.onProgress?.(1);
    return { format: 'proton-csv', items, skipped };
  },
};
