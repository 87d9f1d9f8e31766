import { emptyTransferIdentity, emptyTransferItem, type TransferItem } from '../transfer-item';
import type { CsvRow } from './csv-import';
import { ONEPASSWORD_CARD_IDS, ONEPASSWORD_IDENTITY_IDS } from './onepassword-field-ids';
import { fieldOf, isoDate, loginOrNote, nameFor, ownValue } from './item-rules';

/**
 * 1Password 7 for Mac's CSV ("All Items" as CSV): plain columns `Title, Type, Username,
 * Password, URL, Notes, Tags, Created Date, Modified Date, Scope, First One-time Password`,
 * and one column per detail field named "label(id)" ("number(ccnum)", "first name(firstname)").
 * An export holds only the columns its items use, so a file of identities has no Username or
 * Password column. Quotes inside values are escaped with a backslash, not doubled.
 */

/** A header is this shape when it has Title and Type and at least one "label(id)" column. */
export function isMacHeader(header: readonly string[]): boolean {
  const lower = new Set(header.map((name) => name.toLowerCase()));
  return lower.has('title') && lower.has('type') && header.some((name) => MAC_FIELD.test(name));
}

const MAC_FIELD = /^(.+)\(([A-Za-z_]+)\)$/;

/** Field ids whose values are secrets: kept as hidden fields. */
const SECRET_ID = /password|pin|cvv|reg_code|secret|key/i;

export function macItem(row: CsvRow): TransferItem {
  const kind = row.cell('Type').trim();
  const title = row.cell('Title');
  const details = row
    .columns((name) => MAC_FIELD.test(name))
    .filter((column) => column.value !== '')
    .map((column) => {
      const [, label = '', id = ''] = MAC_FIELD.exec(column.name) ?? [];
      return { label: label.trim(), id, value: column.value };
    });
  const urls = [row.cell('URL')];
  let item: TransferItem;
  if (kind === 'Credit Card' || kind === 'Identity') {
    item = emptyTransferItem(kind === 'Credit Card' ? 'card' : 'identity', nameFor(title, [], ''));
    item.notes = row.cell('Notes');
    for (const url of urls) item.fields.push(...fieldOf('Website', url.trim()));
    item.fields.push(...fieldOf('Username', row.cell('Username')));
    item.fields.push(...fieldOf('Password', row.cell('Password'), 'hidden'));
  } else {
    item = loginOrNote({
      name: title,
      urls,
      username: row.cell('Username'),
      password: row.cell('Password'),
      notes: row.cell('Notes'),
      totp: row.cell('First One-time Password'),
    });
    if (!['', 'Login', 'Password', 'Secure Note'].includes(kind))
      item.fields.push({ label: '1Password category', kind: 'text', value: kind });
  }
  const card = { holder: '', brand: '', number: '', code: '', expMonth: '', expYear: '' };
  const identity = emptyTransferIdentity();
  for (const { label, id, value } of details) {
    const cardKey = item.type === 'card' ? ownValue(ONEPASSWORD_CARD_IDS, id) : undefined;
    const identityKey = item.type === 'identity' ? ownValue(ONEPASSWORD_IDENTITY_IDS, id) : undefined;
    const expiry = item.type === 'card' && /^expiry/.test(id) ? monthYear(value) : null;
    if (cardKey !== undefined && card[cardKey] === '') card[cardKey] = value;
    else if (expiry !== null && card.expMonth === '') [card.expMonth, card.expYear] = expiry;
    else if (identityKey !== undefined && identity[identityKey] === '') identity[identityKey] = value;
    else item.fields.push(...fieldOf(label || id, value, SECRET_ID.test(id) ? 'hidden' : 'text'));
  }
  if (item.type === 'card') item.card = card;
  if (item.type === 'identity') item.identity = identity;
  item.tags = macTags(row.cell('Tags'));
  item.createdAt = isoDate(row.cell('Created Date'));
  item.updatedAt = isoDate(row.cell('Modified Date'));
  return item;
}

/** "203001" or "1/2030" → ['01', '2030']; null for anything else (kept as a field then). */
function monthYear(value: string): [string, string] | null {
  const compact = /^(\d{4})(\d{2})$/.exec(value.trim());
  if (compact) return [compact[2]!, compact[1]!];
  const slashed = /^(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return slashed ? [slashed[1]!.padStart(2, '0'), slashed[2]!] : null;
}

/** Tags as 1Password 7 for Mac writes them, an old property list: "{(\n    a,\n    b\n)}"; or plain "a,b". */
function macTags(text: string): string[] {
  const inner = text.trim().replace(/^\{\(/, '').replace(/\)\}$/, '');
  return [
    ...new Set(
      inner
        .split(',')
        .map((tag) => tag.trim().replace(/^"(.*)"$/, '$1'))
        .filter((tag) => tag !== ''),
    ),
  ];
}
