import {
  emptyTransferItem,
  type TransferField,
  type TransferIdentity,
  type TransferItem,
  emptyTransferIdentity,
} from '../transfer-item';
import { fieldOf } from './item-rules';

/**
 * LastPass secure notes (url `http://sn`) with a template keep their values in `extra` as
 * "Key:Value" lines after a "NoteType:..." line; "Notes:" comes last and takes every line after
 * it. Credit cards and addresses become Lockit cards and identities; every other template
 * (bank account, Wi-Fi, SSH key, custom...) a secure note whose values are custom fields.
 * `Language` is the template's language, nothing the person typed, so it is not kept.
 */
export function lastPassNote(name: string, extra: string): TransferItem {
  if (!extra.startsWith('NoteType:')) {
    const item = emptyTransferItem('note', name);
    item.notes = extra;
    return item;
  }
  const { noteType, values, notes } = parseTemplate(extra);
  if (noteType === 'Credit Card') return card(name, values, notes);
  if (noteType === 'Address') return identity(name, values, notes);
  const item = emptyTransferItem('note', name);
  item.notes = notes;
  item.fields = [
    { label: 'LastPass note type', kind: 'text', value: noteType.startsWith('Custom_') ? 'Custom' : noteType },
    ...[...values].flatMap(([key, value]) => fieldOf(key, value, isSecret(key) ? 'hidden' : 'text')),
  ];
  return item;
}

function parseTemplate(extra: string): { noteType: string; values: Map<string, string>; notes: string } {
  const lines = extra.split('\n');
  const noteType = (lines.shift() ?? '').slice('NoteType:'.length).trim();
  const values = new Map<string, string>();
  let notes = '';
  let last: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const colon = line.indexOf(':');
    const key = colon > 0 ? line.slice(0, colon) : '';
    if (key === 'Notes') {
      notes = [line.slice(colon + 1), ...lines.slice(index + 1)].join('\n');
      break;
    }
    if (key !== '' && !/\s{2,}/.test(key) && !values.has(key)) {
      last = key;
      values.set(key, line.slice(colon + 1));
    } else if (last !== null) {
      // A line without a key continues the value above it (a multi-line private key).
      values.set(last, `${values.get(last) ?? ''}\n${line}`);
    }
  }
  values.delete('Language');
  // Empty dates are written as "," or ",,": no value.
  for (const [key, value] of values) values.set(key, /^[,\s]*$/.test(value) ? '' : value);
  return { noteType, values, notes };
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function card(name: string, values: Map<string, string>, notes: string): TransferItem {
  const take = (key: string): string => {
    const value = values.get(key) ?? '';
    values.delete(key);
    return value;
  };
  const item = emptyTransferItem('card', name);
  item.notes = notes;
  const [monthName = '', year = ''] = take('Expiration Date').split(',');
  const month = MONTHS.indexOf(monthName.trim().toLowerCase()) + 1;
  item.card = {
    holder: take('Name on Card'),
    brand: take('Type'),
    number: take('Number').replace(/\s/g, ''),
    code: take('Security Code'),
    expMonth: month > 0 ? String(month).padStart(2, '0') : '',
    expYear: year.trim(),
  };
  item.fields = restFields(values);
  return item;
}

const ADDRESS_KEYS: Record<string, keyof TransferIdentity> = {
  Title: 'title',
  'First Name': 'firstName',
  'Middle Name': 'middleName',
  'Last Name': 'lastName',
  Company: 'company',
  'Address 1': 'address1',
  'Address 2': 'address2',
  'City / Town': 'city',
  State: 'state',
  'Zip / Postal Code': 'postalCode',
  Country: 'country',
  'Email Address': 'email',
  Phone: 'phone',
};

function identity(name: string, values: Map<string, string>, notes: string): TransferItem {
  const item = emptyTransferItem('identity', name);
  item.notes = notes;
  const result: TransferIdentity = emptyTransferIdentity();
  for (const [key, target] of Object.entries(ADDRESS_KEYS)) {
    result[target] = values.get(key) ?? '';
    values.delete(key);
  }
  item.identity = result;
  item.fields = restFields(values);
  return item;
}

function restFields(values: Map<string, string>): TransferField[] {
  return [...values].flatMap(([key, value]) => fieldOf(key, value, isSecret(key) ? 'hidden' : 'text'));
}

function isSecret(key: string): boolean {
  return /password|passphrase|pin|private key|security code|cvv/i.test(key);
}
