import { defineCsvFormat, hasExactColumns } from './csv-import';
import { loginOrNote } from './item-rules';

/**
 * Chrome, Edge and Brave ("Export passwords"): `name,url,username,password[,note]`. Rows may be
 * ragged (a row without a note has four values); readCsv gives missing columns as ''.
 */
export const chromeCsvFormat = defineCsvFormat({
  id: 'chrome-csv',
  label: 'Chrome, Edge or Brave (CSV)',
  required: ['name', 'url', 'username', 'password'],
  detect: (header) => (hasExactColumns(header, ['name', 'url', 'username', 'password'], ['note']) ? 1 : 0),
  toItem: (row) =>
    loginOrNote({
      name: row.cell('name'),
      urls: [row.cell('url').trim()],
      username: row.cell('username'),
      password: row.cell('password'),
      notes: row.cell('note'),
      totp: '',
    }),
});
