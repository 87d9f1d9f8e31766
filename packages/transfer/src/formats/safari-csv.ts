import { defineCsvFormat, hasExactColumns } from './csv-import';
import { loginOrNote } from './item-rules';

/**
 * Safari and macOS Passwords: `Title,URL,Username,Password,Notes,OTPAuth` (Safari 15+) or
 * `Title,Url,Username,Password` (older). OTPAuth is an otpauth:// URI.
 */
export const safariCsvFormat = defineCsvFormat({
  id: 'safari-csv',
  label: 'Safari or Apple Passwords (CSV)',
  required: ['Title', 'URL', 'Username', 'Password'],
  detect: (header) => (hasExactColumns(header, ['Title', 'URL', 'Username', 'Password'], ['Notes', 'OTPAuth']) ? 1 : 0),
  toItem: (row) =>
    loginOrNote({
      name: row.cell('Title'),
      urls: [row.cell('URL').trim()],
      username: row.cell('Username'),
      password: row.cell('Password'),
      notes: row.cell('Notes'),
      totp: row.cell('OTPAuth'),
    }),
});
