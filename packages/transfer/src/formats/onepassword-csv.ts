import { emptyTransferIdentity, emptyTransferItem, type TransferItem } from '../transfer-item';
import { defineCsvFormat, hasExactColumns, type CsvRow } from './csv-import';
import { fieldOf, isTruthy, loginOrNote, nameFor, ownValue } from './item-rules';
import { isMacHeader, macItem } from './onepassword-mac-csv';

const V8_COLUMNS = ['Title', 'Url', 'Username', 'Password', 'OTPAuth', 'Favorite', 'Archived', 'Tags', 'Notes'];
const V7_REQUIRED = ['UUID', 'TITLE', 'USERNAME', 'PASSWORD', 'URL'];

/**
 * 1Password's CSV exports, three shapes:
 * - 1Password 8: `Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes`;
 * - 1Password 7 for Windows: upper-case `UUID,TITLE,USERNAME,PASSWORD,URL,URLS,...,TAGS,NOTES`
 *   then one column per section field, named "SECTION n: id" (the section's title) and
 *   "<section> n: LABEL" (a value). Cards and identities are recognised by their fields;
 * - 1Password 7 for Mac: "label(id)" columns and a Type column (onepassword-mac-csv.ts).
 * Only a title is required: an export holding only cards or identities has no user name or
 * password column.
 */
export const onePasswordCsvFormat = defineCsvFormat({
  id: '1password-csv',
  label: '1Password (CSV)',
  required: ['Title'],
  // UUID is 1Password's item id; SCOPE and AUTOSUBMIT are fill settings, not data.
  ignored: ['UUID', 'SCOPE', 'AUTOSUBMIT'],
  detect: (header) => {
    if (hasExactColumns(header, V8_COLUMNS)) return 1;
    if (isMacHeader(header)) return 0.95;
    const upper = new Set(header);
    return V7_REQUIRED.every((name) => upper.has(name)) && upper.has('NOTES') ? 1 : 0;
  },
  readOptions: (header) => (isMacHeader(header) ? { escapeChar: '\\' } : {}),
  toItem: (row) => (row.header.includes('UUID') ? v7Item(row) : isMacHeader(row.header) ? macItem(row) : v8Item(row)),
});

function v8Item(row: CsvRow): TransferItem {
  const item = loginOrNote({
    name: row.cell('Title'),
    urls: [row.cell('Url', 'URL').trim()],
    username: row.cell('Username'),
    password: row.cell('Password'),
    notes: row.cell('Notes'),
    totp: row.cell('OTPAuth'),
  });
  item.favorite = isTruthy(row.cell('Favorite'));
  item.tags = splitTags(row.cell('Tags'));
  if (isTruthy(row.cell('Archived'))) item.tags.push('1Password archive');
  return item;
}

const CARD_LABELS = { 'CARDHOLDER NAME': 'holder', NUMBER: 'number', 'VERIFICATION NUMBER': 'code', TYPE: 'brand' } as const;
const IDENTITY_LABELS = {
  'FIRST NAME': 'firstName',
  INITIAL: 'middleName',
  'LAST NAME': 'lastName',
  COMPANY: 'company',
  ADDRESS: 'address1',
  'DEFAULT PHONE': 'phone',
  EMAIL: 'email',
} as const;

function v7Item(row: CsvRow): TransferItem {
  const title = row.cell('TITLE');
  const username = row.cell('USERNAME');
  const password = row.cell('PASSWORD');
  const urls = [row.cell('URL'), ...row.cell('URLS').split(/[\n,]/)].map((url) => url.trim()).filter((url) => url !== '');
  // Section titles ("SECTION 1: <id>") name a group of fields; the values are in the other columns.
  row.columns((name) => /^SECTION \d+: /.test(name));
  const values = row
    .columns((name) => /^.*\d+: .+$/.test(name) && !/^SECTION \d+: /.test(name))
    .filter((column) => column.value !== '')
    .map((column) => ({ label: column.name.replace(/^.*?\d+: /, ''), value: column.value }));

  const isCard = values.some((value) => value.label === 'CARDHOLDER NAME' || value.label === 'VERIFICATION NUMBER');
  const isIdentity = !isCard && values.some((value) => value.label === 'FIRST NAME' || value.label === 'LAST NAME');
  const unique = [...new Set(urls)];
  let item: TransferItem;
  if (isCard || isIdentity) {
    item = emptyTransferItem(isCard ? 'card' : 'identity', nameFor(title, [], ''));
    item.notes = row.cell('NOTES');
    for (const url of unique) item.fields.push(...fieldOf('Website', url));
    if (username !== '') item.fields.push(...fieldOf('Username', username));
    if (password !== '') item.fields.push(...fieldOf('Password', password, 'hidden'));
  } else {
    item = loginOrNote({ name: title, urls: unique, username, password, notes: row.cell('NOTES'), totp: '' });
  }
  const card = { holder: '', brand: '', number: '', code: '', expMonth: '', expYear: '' };
  const identity = emptyTransferIdentity();
  for (const { label, value } of values) {
    const cardKey = isCard ? ownValue<keyof typeof card>(CARD_LABELS, label) : undefined;
    const identityKey = isIdentity ? ownValue<keyof typeof identity>(IDENTITY_LABELS, label) : undefined;
    if (cardKey !== undefined && card[cardKey] === '') {
      card[cardKey] = value;
    } else if (isCard && label === 'EXPIRY DATE' && /^\d{1,2}\/\d{1,2}\/\d{4}/.test(value)) {
      // 1Password 7 for Windows writes the month-year as a date: "1/3/1970 12:23 AM" → 01 / 1970.
      const [month = '', , year = ''] = value.split(/[/\s]/);
      card.expMonth = month.padStart(2, '0');
      card.expYear = year;
    } else if (identityKey !== undefined && identity[identityKey] === '') {
      identity[identityKey] = value;
    } else {
      item.fields.push(
        ...fieldOf(sentenceCase(label), value, /PASSWORD|SECRET|KEY|PIN|VERIFICATION/.test(label) ? 'hidden' : 'text'),
      );
    }
  }
  if (isCard) item.card = card;
  if (isIdentity) item.identity = identity;
  // EMAIL repeats the user name and MASTER-PASSWORD the password on the account item: kept only when they differ.
  const email = row.cell('EMAIL');
  if (email !== '' && email !== username) item.fields.push({ label: 'Email', kind: 'text', value: email });
  const master = row.cell('MASTER-PASSWORD');
  if (master !== '' && master !== password) item.fields.push({ label: 'Master password', kind: 'hidden', value: master });
  item.fields.push(...fieldOf('Account key', row.cell('ACCOUNT-KEY'), 'hidden'));
  item.tags = splitTags(row.cell('TAGS'));
  return item;
}

function splitTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,;]/)
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    ),
  ];
}

function sentenceCase(label: string): string {
  const lower = label.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
