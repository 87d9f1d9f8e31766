import { defineCsvFormat, hasExactColumns } from './csv-import';
import { isoDate, loginOrNote } from './item-rules';

const COLUMNS = ['Group', 'Title', 'Username', 'Password', 'URL', 'Notes'];
const NEWER_COLUMNS = ['TOTP', 'Icon', 'Last Modified', 'Created'];

/**
 * KeePassXC's CSV export: `Group,Title,Username,Password,URL,Notes` and, since 2.6,
 * `TOTP,Icon,Last Modified,Created`. Group is the path from the database's root group, whose
 * own name comes first ("Root/Emails/WS"): the folder is the rest ("Emails/WS").
 * Icon is KeePassXC's icon number: nothing a person typed, so not kept.
 */
export const keepassxcCsvFormat = defineCsvFormat({
  id: 'keepassxc-csv',
  label: 'KeePassXC (CSV)',
  required: ['Group', 'Title', 'Username', 'Password', 'URL'],
  ignored: ['Icon'],
  detect: (header) => (hasExactColumns(header, COLUMNS, NEWER_COLUMNS) ? 1 : 0),
  toItem: (row) => {
    const item = loginOrNote({
      name: row.cell('Title'),
      urls: [row.cell('URL').trim()],
      username: row.cell('Username'),
      password: row.cell('Password'),
      notes: row.cell('Notes'),
      totp: row.cell('TOTP'),
    });
    const path = row
      .cell('Group')
      .split('/')
      .slice(1)
      .map((part) => part.trim())
      .filter((part) => part !== '');
    item.folder = path.length > 0 ? path.join('/') : null;
    item.updatedAt = isoDate(row.cell('Last Modified'));
    item.createdAt = isoDate(row.cell('Created'));
    return item;
  },
});
