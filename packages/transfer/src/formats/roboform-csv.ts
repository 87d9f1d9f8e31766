import type { TransferField } from '../transfer-item';
import { defineCsvFormat, hasExactColumns } from './csv-import';
import { fieldOf, loginOrNote } from './item-rules';

/**
 * RoboForm's CSV export: `Name,Url,MatchUrl,Login,Pwd,Note,Folder,RfFieldsV2`. The RfFieldsV2
 * column and every value past it are the login's form fields, one per cell, each a
 * comma-joined definition "name$,id,?,type,value" (RoboForm's older files pack several such
 * five-part definitions in one cell). "TOTP KEY$" holds the TOTP secret. Folders start with a
 * slash ("/Business/Banking"). A Login or Pwd value starting with @ or ' gets a ' prepended by
 * RoboForm (against spreadsheet formulas), which is taken off.
 */
const COLUMNS = ['Name', 'Url', 'MatchUrl', 'Login', 'Pwd', 'Note', 'Folder'];

export const roboformCsvFormat = defineCsvFormat({
  id: 'roboform-csv',
  label: 'RoboForm (CSV)',
  required: ['Name', 'Url', 'Login', 'Pwd'],
  detect: (header) => (hasExactColumns(header, COLUMNS, ['RfFieldsV2']) ? 1 : 0),
  toItem: (row) => {
    const username = unescape(row.cell('Login'));
    const password = unescape(row.cell('Pwd'));
    const definitions = [row.cell('RfFieldsV2'), ...row.extra()].filter((cell) => cell.trim() !== '');
    const { fields, totp } = formFields(definitions, username, password);
    const item = loginOrNote({
      name: row.cell('Name'),
      username,
      password,
      urls: [...new Set([row.cell('Url').trim(), row.cell('MatchUrl').trim()])],
      notes: row.cell('Note'),
      totp,
    });
    item.fields.push(...fields);
    const folder = row
      .cell('Folder')
      .split('/')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    item.folder = folder.length > 0 ? folder.join('/') : null;
    return item;
  },
});

function unescape(value: string): string {
  return value.replace(/^'(?=[@'])/, '');
}

/** Form fields as custom fields (passwords hidden), the TOTP secret apart; copies of the login's user name and password are not repeated. */
function formFields(cells: string[], username: string, password: string): { fields: TransferField[]; totp: string } {
  const fields: TransferField[] = [];
  let totp = '';
  for (const cell of cells) {
    const parts = cell.split(',');
    // One definition has five parts; an older cell packs several in a row.
    const definitions = parts.length > 5 && parts.length % 5 === 0 ? chunk(parts, 5) : [parts];
    for (const definition of definitions) {
      if (definition.length === 1) {
        fields.push(...fieldOf('RoboForm field', unescape(definition[0] ?? '')));
        continue;
      }
      const name = (definition[0] ?? '').replace(/\$$/, '').trim();
      const type = definition.length >= 5 ? (definition[3] ?? '') : '';
      const value = unescape(definition.slice(definition.length >= 5 ? 4 : 1).join(','));
      if (name === 'TOTP KEY' && totp === '') totp = value.trim();
      else if (value !== '' && value !== username && value !== password)
        fields.push(...fieldOf(name || 'Field', value, type === 'pwd' ? 'hidden' : 'text'));
    }
  }
  return { fields, totp };
}

function chunk<T>(values: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < values.length; i += size) chunks.push(values.slice(i, i + size));
  return chunks;
}
