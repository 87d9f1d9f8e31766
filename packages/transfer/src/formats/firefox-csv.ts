import { defineCsvFormat, hasExactColumns } from './csv-import';
import { fieldOf, hostOf, isoDate, loginOrNote } from './item-rules';

const COLUMNS = [
  'url',
  'username',
  'password',
  'httpRealm',
  'formActionOrigin',
  'guid',
  'timeCreated',
  'timeLastUsed',
  'timePasswordChanged',
];

/**
 * Firefox ("Export Logins"): `url,username,password,httpRealm,formActionOrigin,guid,
 * timeCreated,timeLastUsed,timePasswordChanged`, times in milliseconds. There is no name: the
 * item is named after the address's host. Not kept: guid (Firefox's internal id) and
 * timeLastUsed (usage, not data); a form address is kept only where it differs from the login's.
 */
export const firefoxCsvFormat = defineCsvFormat({
  id: 'firefox-csv',
  label: 'Firefox (CSV)',
  required: ['url', 'username', 'password'],
  ignored: ['guid', 'timeLastUsed'],
  detect: (header) =>
    hasExactColumns(header, ['url', 'username', 'password', 'httpRealm', 'formActionOrigin'], COLUMNS) ? 1 : 0,
  toItem: (row) => {
    const url = row.cell('url').trim();
    if (url.toLowerCase().startsWith('chrome://')) {
      return { skip: `"${url}" is Firefox's own sync account record, not a saved login.` };
    }
    const username = row.cell('username');
    const password = row.cell('password');
    if (username === '' && password === '') {
      row.cell('httpRealm', 'formActionOrigin', 'timeCreated', 'timePasswordChanged');
      return { skip: `the login for "${url || 'no address'}" has no user name and no password.` };
    }
    const item = loginOrNote({ name: '', urls: [url], username, password, notes: '', totp: '' });
    item.createdAt = isoDate(row.cell('timeCreated'));
    item.updatedAt = isoDate(row.cell('timePasswordChanged'));
    item.fields.push(...fieldOf('HTTP realm', row.cell('httpRealm')));
    const formOrigin = row.cell('formActionOrigin').trim();
    if (formOrigin !== '' && hostOf(formOrigin) !== hostOf(url)) item.fields.push(...fieldOf('Form address', formOrigin));
    return item;
  },
});
