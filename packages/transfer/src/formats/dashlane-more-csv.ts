import { emptyTransferIdentity, emptyTransferItem, type TransferItem } from '../transfer-item';
import { defineCsvFormat, hasExactColumns, type CsvRow } from './csv-import';
import { fieldOf, nameFor, ownValue } from './item-rules';

/**
 * The other files of Dashlane's CSV export ZIP (credentials.csv is dashlane-csv.ts): each is
 * imported on its own, as the person picks it. Columns as Dashlane writes them (and
 * Bitwarden's Dashlane importer reads them); every column not placed is kept as a custom field
 * by defineCsvFormat.
 */

const PAYMENTS = [
  'type',
  'account_name',
  'account_holder',
  'cc_number',
  'code',
  'expiration_month',
  'expiration_year',
  'routing_number',
  'account_number',
  'country',
  'issuing_bank',
];

/** payments.csv: cards (type payment_card) and bank accounts (type bank). */
export const dashlanePaymentsCsvFormat = defineCsvFormat({
  id: 'dashlane-payments-csv',
  label: 'Dashlane (payments.csv)',
  required: ['type', 'account_name', 'cc_number'],
  detect: (header) => (hasExactColumns(header, PAYMENTS) ? 1 : 0),
  toItem: (row) => {
    const type = row.cell('type').trim();
    const name = row.cell('account_name');
    if (type === 'payment_card') {
      const item = emptyTransferItem('card', nameFor(name, [], ''));
      const year = row.cell('expiration_year').trim();
      item.card = {
        holder: row.cell('account_holder'),
        brand: '',
        number: row.cell('cc_number').replace(/\s/g, ''),
        code: row.cell('code'),
        expMonth: twoDigits(row.cell('expiration_month').trim()),
        expYear: year,
      };
      return item;
    }
    // A bank account has no Lockit type: a secure note whose values are fields, the number hidden.
    const item = emptyTransferItem('note', nameFor(name, [], ''));
    item.fields.push(
      ...(type !== 'bank' && type !== '' ? fieldOf('Dashlane type', type) : []),
      ...fieldOf('Account holder', row.cell('account_holder')),
      ...fieldOf('Account number', row.cell('account_number'), 'hidden'),
      ...fieldOf('Routing number', row.cell('routing_number')),
    );
    return item;
  },
});

function twoDigits(month: string): string {
  return month === '' ? '' : month.padStart(2, '0');
}

const IDS = ['type', 'number', 'name', 'issue_date', 'expiration_date', 'place_of_issue', 'state'];
const ID_TYPES: Readonly<Record<string, string>> = {
  card: 'ID card',
  passport: 'Passport',
  license: 'Driver licence',
  social_security: 'Social security number',
  tax_number: 'Tax number',
};

/** ids.csv: ID cards, passports, licences, social security and tax numbers, as identities. */
export const dashlaneIdsCsvFormat = defineCsvFormat({
  id: 'dashlane-ids-csv',
  label: 'Dashlane (ids.csv)',
  required: ['type', 'number', 'name'],
  detect: (header) => (hasExactColumns(header, IDS) ? 1 : 0),
  toItem: (row) => {
    const type = row.cell('type').trim();
    const kind = ownValue(ID_TYPES, type) ?? type;
    const holder = row.cell('name').trim();
    const item = emptyTransferItem('identity', nameFor(holder === '' ? kind : `${kind}: ${holder}`, [], ''));
    const identity = emptyTransferIdentity();
    const [first = '', ...rest] = holder.split(/\s+/).filter((part) => part !== '');
    identity.firstName = first;
    identity.lastName = rest.join(' ');
    const number = row.cell('number');
    if (type === 'passport') identity.passport = number;
    else if (type === 'license') identity.license = number;
    else if (type === 'social_security') identity.ssn = number;
    else item.fields.push(...fieldOf(/number$/i.test(kind) ? kind : `${kind} number`, number));
    item.identity = identity;
    item.fields.push(
      ...fieldOf('Issued', row.cell('issue_date')),
      ...fieldOf('Expires', row.cell('expiration_date')),
      ...fieldOf('Place of issue', row.cell('place_of_issue')),
      ...fieldOf('Issuing state', row.cell('state')),
    );
    return item;
  },
});

/** personalInfo.csv: one row per piece of personal information (a name, an email, a number, an address, a website). */
export const dashlanePersonalInfoCsvFormat = defineCsvFormat({
  id: 'dashlane-personal-info-csv',
  label: 'Dashlane (personalInfo.csv)',
  required: ['type', 'item_name', 'first_name', 'last_name'],
  detect: (header) => {
    const lower = new Set(header.map((name) => name.toLowerCase()));
    return ['type', 'title', 'first_name', 'last_name', 'item_name', 'date_of_birth', 'email_type', 'address_door_code'].every(
      (name) => lower.has(name),
    )
      ? 1
      : 0;
  },
  toItem: (row) => personalInfoItem(row),
});

function personalInfoItem(row: CsvRow): TransferItem {
  const type = row.cell('type').trim();
  const item = emptyTransferItem('identity', nameFor(row.cell('item_name') || row.cell('title') || type, [], ''));
  const identity = emptyTransferIdentity();
  identity.title = row.cell('title');
  identity.firstName = row.cell('first_name');
  identity.middleName = row.cell('middle_name');
  identity.lastName = row.cell('last_name');
  identity.email = row.cell('email');
  identity.phone = row.cell('phone_number');
  identity.address1 = [row.cell('address_building'), row.cell('address')].filter((part) => part.trim() !== '').join(' ');
  identity.address2 = [row.cell('address_apartment'), row.cell('address_floor')].filter((part) => part.trim() !== '').join(', ');
  identity.city = row.cell('city');
  identity.state = row.cell('state');
  identity.postalCode = row.cell('zip');
  identity.country = row.cell('country');
  item.identity = identity;
  // Parts the building and apartment lines did not name are kept with their own labels.
  item.fields.push(
    ...fieldOf('Login', row.cell('login')),
    ...fieldOf('Date of birth', row.cell('date_of_birth')),
    ...fieldOf('Place of birth', row.cell('place_of_birth')),
    ...fieldOf('Email type', row.cell('email_type')),
    ...fieldOf('Recipient', row.cell('address_recipient')),
    ...fieldOf('Door code', row.cell('address_door_code'), 'hidden'),
    ...fieldOf('Job title', row.cell('job_title')),
    ...fieldOf('Website', row.cell('url')),
  );
  if (!['name', 'email', 'number', 'address', 'website', ''].includes(type))
    item.fields.unshift({ label: 'Dashlane type', kind: 'text', value: type });
  return item;
}

/** securenotes.csv: a title and a note (newer exports add a category, kept as a tag). */
export const dashlaneNotesCsvFormat = defineCsvFormat({
  id: 'dashlane-notes-csv',
  label: 'Dashlane (securenotes.csv)',
  required: ['title', 'note'],
  detect: (header) => (hasExactColumns(header, ['title', 'note'], ['category']) ? 0.9 : 0),
  toItem: (row) => {
    const item = emptyTransferItem('note', nameFor(row.cell('title'), [], ''));
    item.notes = row.cell('note');
    const category = row.cell('category').trim();
    if (category !== '') item.tags = [category];
    return item;
  },
});
