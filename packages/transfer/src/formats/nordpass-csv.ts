import { emptyTransferIdentity, emptyTransferItem, type TransferField, type TransferItem } from '../transfer-item';
import { defineCsvFormat, type CsvRow } from './csv-import';
import { fieldOf, loginOrNote, nameFor } from './item-rules';

/**
 * NordPass's CSV export: `name,url,[additional_urls,]username,password,note,cardholdername,
 * cardnumber,cvc,[pin,]expirydate,zipcode,folder,full_name,phone_number,email,address1,
 * address2,city,country,state,type[,custom_fields]` (older exports lack the bracketed
 * columns). `type` is password, credit_card, identity or note; a `folder` row only declares a
 * folder. Extra addresses and custom fields are JSON: `["https://..."]` and
 * `[{"label": ..., "type": "text"|"hidden", "value": ...}]`. Card expiry is "MM/YY".
 */
const SIGNATURE = [
  'name',
  'url',
  'username',
  'password',
  'note',
  'cardholdername',
  'cardnumber',
  'cvc',
  'expirydate',
  'zipcode',
  'folder',
  'full_name',
];

export const nordpassCsvFormat = defineCsvFormat({
  id: 'nordpass-csv',
  label: 'NordPass (CSV)',
  required: ['name', 'url', 'username', 'password', 'note', 'cardnumber', 'full_name'],
  detect: (header) => {
    const lower = new Set(header.map((name) => name.toLowerCase()));
    return SIGNATURE.every((name) => lower.has(name)) ? 1 : 0;
  },
  toItem: (row) => {
    const type = row.cell('type').trim();
    if (type === 'folder') return { skip: `"${row.cell('name')}" only declares a folder; the items in it carry its name.` };
    const item = itemOf(row, type);
    item.folder = row.cell('folder').trim() || null;
    item.fields.push(...customFields(row.cell('custom_fields')));
    return item;
  },
});

function itemOf(row: CsvRow, type: string): TransferItem {
  const name = row.cell('name');
  if (type === 'credit_card') {
    const item = emptyTransferItem('card', nameFor(name, [], ''));
    const [month = '', year = ''] = row.cell('expirydate').trim().split('/');
    item.card = {
      holder: row.cell('cardholdername'),
      brand: '',
      number: row.cell('cardnumber').replace(/\s/g, ''),
      code: row.cell('cvc'),
      expMonth: month === '' ? '' : month.padStart(2, '0'),
      // NordPass writes two digits; Lockit's cards keep four.
      expYear: /^\d{2}$/.test(year) ? `20${year}` : year,
    };
    item.fields.push(...fieldOf('PIN', row.cell('pin'), 'hidden'));
    item.fields.push(...fieldOf('ZIP code', row.cell('zipcode')));
    item.notes = row.cell('note');
    return item;
  }
  if (type === 'identity') {
    const item = emptyTransferItem('identity', nameFor(name, [], ''));
    const identity = emptyTransferIdentity();
    // Lockit keeps first, middle and last names: "Ann Marie Smith Jr" → Ann / Marie / Smith Jr.
    const parts = row
      .cell('full_name')
      .trim()
      .split(/\s+/)
      .filter((part) => part !== '');
    identity.firstName = parts[0] ?? '';
    if (parts.length === 2) identity.lastName = parts[1] ?? '';
    if (parts.length > 2) {
      identity.middleName = parts[1] ?? '';
      identity.lastName = parts.slice(2).join(' ');
    }
    identity.email = row.cell('email');
    identity.phone = row.cell('phone_number');
    identity.address1 = row.cell('address1');
    identity.address2 = row.cell('address2');
    identity.city = row.cell('city');
    identity.state = row.cell('state');
    identity.postalCode = row.cell('zipcode');
    identity.country = row.cell('country');
    item.identity = identity;
    item.notes = row.cell('note');
    return item;
  }
  const item = loginOrNote({
    name,
    username: row.cell('username'),
    password: row.cell('password'),
    urls: [row.cell('url'), ...additionalUrls(row.cell('additional_urls'))],
    notes: row.cell('note'),
    totp: '',
  });
  if (!['', 'password', 'note'].includes(type)) item.fields.unshift({ label: 'NordPass type', kind: 'text', value: type });
  return item;
}

/** The JSON list of further addresses; text that is not one is kept, split at commas. */
function additionalUrls(text: string): string[] {
  if (text.trim() === '') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed.filter((url): url is string => typeof url === 'string');
  } catch {
    // Not JSON: taken as written below.
  }
  return text.split(',').map((url) => url.trim());
}

/** The JSON list of custom fields; anything else is kept whole as one field, never dropped. */
function customFields(text: string): TransferField[] {
  if (text.trim() === '') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) {
      return parsed.flatMap((field: unknown) => {
        if (typeof field !== 'object' || field === null) return fieldOf('Custom field', String(field));
        const { label, type, value } = field as Record<string, unknown>;
        return fieldOf(
          typeof label === 'string' ? label : 'Field',
          value === undefined || value === null ? '' : String(value),
          type === 'hidden' ? 'hidden' : 'text',
        );
      });
    }
  } catch {
    // Not JSON: kept as text below.
  }
  return fieldOf('custom_fields', text);
}
