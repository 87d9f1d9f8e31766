import { defineCsvFormat, hasExactColumns } from './csv-import';
import { isTruthy, loginOrNote, nameFor } from './item-rules';
import { lastPassNote } from './lastpass-notes';

/**
 * LastPass: `url,username,password,totp,extra,name,grouping,fav` (older exports have no totp).
 * `extra` is a login's notes, or a secure note's body when url is `http://sn`; `grouping` nests
 * folders with backslashes ("Emails\WS" → "Emails/WS").
 */
export const lastpassCsvFormat = defineCsvFormat({
  id: 'lastpass-csv',
  label: 'LastPass (CSV)',
  required: ['url', 'username', 'password', 'extra', 'name', 'grouping'],
  detect: (header) =>
    hasExactColumns(header, ['url', 'username', 'password', 'extra', 'name', 'grouping'], ['totp', 'fav']) ? 1 : 0,
  toItem: (row) => {
    const url = row.cell('url').trim();
    const name = row.cell('name');
    const extra = row.cell('extra');
    const item =
      url === 'http://sn'
        ? lastPassNote(nameFor(name, [], ''), extra)
        : loginOrNote({
            name,
            urls: [url],
            username: row.cell('username'),
            password: row.cell('password'),
            notes: extra,
            totp: row.cell('totp'),
          });
    const folder = row
      .cell('grouping')
      .split('\\')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    item.folder = folder.length > 0 ? folder.join('/') : null;
    item.favorite = isTruthy(row.cell('fav'));
    if (url === 'http://sn') {
      // A secure note's user name, password and TOTP columns are empty; anything there is kept.
      const kept = [
        ['Username', row.cell('username')],
        ['Password', row.cell('password')],
        ['TOTP', row.cell('totp')],
      ] as const;
      for (const [label, value] of kept)
        if (value !== '') item.fields.push({ label, kind: label === 'Username' ? 'text' : 'hidden', value });
    }
    return item;
  },
});
