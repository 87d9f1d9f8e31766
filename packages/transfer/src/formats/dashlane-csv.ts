import { defineCsvFormat, hasExactColumns } from './csv-import';
import { loginOrNote } from './item-rules';

/**
 * Dashlane's credentials.csv (one file of its CSV export ZIP):
 * `username,username2,username3,title,password,note,url,category,otpSecret` (newer: `otpUrl`).
 * The second and third user names are kept as fields; Dashlane's category becomes a tag.
 */
export const dashlaneCsvFormat = defineCsvFormat({
  id: 'dashlane-csv',
  label: 'Dashlane (credentials.csv)',
  required: ['username', 'title', 'password', 'url'],
  detect: (header) =>
    hasExactColumns(
      header,
      ['username', 'title', 'password', 'url'],
      ['username2', 'username3', 'note', 'category', 'otpSecret', 'otpUrl'],
    ) && header.some((name) => /^(username2|otpsecret|otpurl)$/i.test(name))
      ? 1
      : 0,
  toItem: (row) => {
    const item = loginOrNote({
      name: row.cell('title'),
      urls: [row.cell('url').trim()],
      username: row.cell('username'),
      password: row.cell('password'),
      notes: row.cell('note'),
      totp: row.cell('otpUrl') || row.cell('otpSecret'),
    });
    const category = row.cell('category').trim();
    if (category !== '') item.tags = [category];
    return item;
  },
});
