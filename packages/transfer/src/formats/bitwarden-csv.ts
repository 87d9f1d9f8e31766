import { TAGS_FIELD_LABEL } from '../export/bitwarden-json';
import type { TransferField } from '../transfer-item';
import { emptyTransferItem } from '../transfer-item';
import { defineCsvFormat, type CsvRow } from './csv-import';
import { isTruthy, loginOrNote, nameFor } from './item-rules';

/**
 * Bitwarden's CSV export: `folder,favorite,type,name,notes,fields,[reprompt,]login_uri,
 * login_username,login_password,login_totp` (older exports have no `reprompt`). An
 * organisation's export has `collections` (the names comma-joined) where a person's has
 * `folder` and `favorite`. Several web addresses are comma-joined in login_uri; custom fields
 * are "label: value" lines in `fields`. Any other column is kept as a custom field.
 */
const REQUIRED = ['type', 'name', 'login_username', 'login_password'];

/** "label: value" lines as custom fields; Lockit's "Tags: a, b" line as tags. */
export function parseFieldLines(text: string): { fields: TransferField[]; tags: string[] } {
  const fields: TransferField[] = [];
  let tags: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(': ');
    const label = colon === -1 ? line.trim() : line.slice(0, colon).trim();
    const value = colon === -1 ? '' : line.slice(colon + 2);
    if (label === TAGS_FIELD_LABEL) tags = splitNames(value);
    else fields.push({ label: label || 'Field', kind: 'text', value });
  }
  return { fields, tags };
}

function splitNames(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
}

function itemOf(row: CsvRow) {
  const type = row.cell('type').trim().toLowerCase();
  const name = row.cell('name');
  const login = {
    username: row.cell('login_username'),
    password: row.cell('login_password'),
    urls: row
      .cell('login_uri')
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== ''),
    totp: row.cell('login_totp'),
  };
  const hasLogin = login.username !== '' || login.password !== '' || login.urls.length > 0 || login.totp.trim() !== '';
  const item =
    type === 'note' && !hasLogin ? emptyTransferItem('note', nameFor(name, [], '')) : loginOrNote({ name, notes: '', ...login });
  item.notes = row.cell('notes');
  item.folder =
    row
      .cell('folder')
      .trim()
      .replace(/^\/+|\/+$/g, '') || null;
  item.favorite = isTruthy(row.cell('favorite'));
  const { fields, tags } = parseFieldLines(row.cell('fields'));
  item.fields = fields;
  // Collections are shared groupings an item can be in several of: tags, as in the JSON import.
  item.tags = [...new Set([...tags, ...splitNames(row.cell('collections'))])];
  // Lockit has no master-password re-prompt; the setting is kept so the person can see it was on.
  if (row.cell('reprompt').trim() === '1') {
    item.fields.push({ label: 'Bitwarden: ask for the master password', kind: 'boolean', value: 'true' });
  }
  return item;
}

export const bitwardenCsvFormat = defineCsvFormat({
  id: 'bitwarden-csv',
  label: 'Bitwarden (CSV)',
  required: REQUIRED,
  detect: (header) =>
    REQUIRED.every((name) => header.some((column) => column.toLowerCase() === name)) &&
    header.some((column) => column.toLowerCase() === 'login_uri')
      ? 1
      : 0,
  toItem: itemOf,
  keepNameOnly: true,
});
