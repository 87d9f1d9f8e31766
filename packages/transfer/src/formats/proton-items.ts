import { IDENTITY_FIELDS } from '@lockit/contract';
import { emptyTransferItem, type TransferField, type TransferIdentity, type TransferItem } from '../transfer-item';
import { nameFor, ownValue } from './item-rules';

/**
 * Proton Pass's item contents (its protobuf ItemV1 as JSON, as the JSON export holds it and as
 * the CSV export puts cards and identities in the note column), mapped to TransferItems.
 * Whatever has no Lockit place becomes a custom field.
 */

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const str = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** Proton's extra field `{fieldName, type: text|hidden|totp|timestamp, data: {content|totpUri|timestamp}}`. */
export function protonExtraField(raw: unknown): TransferField | null {
  if (!isObject(raw)) return null;
  const data = isObject(raw.data) ? raw.data : {};
  const label = str(raw.fieldName).trim() || 'Field';
  const type = str(raw.type);
  if (type === 'totp') return { label, kind: 'hidden', value: str(data.totpUri) };
  if (type === 'hidden') return { label, kind: 'hidden', value: str(data.content) };
  if (type === 'timestamp') {
    const seconds = isObject(data.timestamp) ? Number(data.timestamp.seconds) : Number(data.timestamp);
    return {
      label,
      kind: 'text',
      value: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : str(data.timestamp),
    };
  }
  return { label, kind: 'text', value: str(data.content) };
}

function extraFields(list: unknown): TransferField[] {
  return Array.isArray(list) ? list.map(protonExtraField).filter((field): field is TransferField => field !== null) : [];
}

/** A card from Proton's creditCard content; the PIN and anything else become fields. */
export function protonCard(name: string, content: Json): TransferItem {
  const item = emptyTransferItem('card', nameFor(name, [], ''));
  const [year = '', month = ''] = str(content.expirationDate).split('-');
  item.card = {
    holder: str(content.cardholderName),
    brand: '',
    number: str(content.number),
    code: str(content.verificationNumber),
    expMonth: month.replace(/^0(?=\d)/, ''),
    expYear: year,
  };
  if (str(content.pin) !== '') item.fields.push({ label: 'PIN', kind: 'hidden', value: str(content.pin) });
  if (str(content.expirationDate) !== '' && month === '')
    item.fields.push({ label: 'Expiration', kind: 'text', value: str(content.expirationDate) });
  return item;
}

const IDENTITY_KEYS: Record<string, keyof TransferIdentity> = {
  firstName: 'firstName',
  middleName: 'middleName',
  lastName: 'lastName',
  email: 'email',
  phoneNumber: 'phone',
  company: 'company',
  streetAddress: 'address1',
  city: 'city',
  stateOrProvince: 'state',
  zipOrPostalCode: 'postalCode',
  countryOrRegion: 'country',
  socialSecurityNumber: 'ssn',
  passportNumber: 'passport',
  licenseNumber: 'license',
};

/** Readable labels for the identity keys Lockit has no place for. */
const IDENTITY_LABELS: Record<string, string> = {
  fullName: 'Full name',
  birthdate: 'Birth date',
  gender: 'Gender',
  organization: 'Organization',
  floor: 'Floor',
  county: 'County',
  website: 'Website',
  xHandle: 'X handle',
  secondPhoneNumber: 'Second phone',
  linkedin: 'LinkedIn',
  reddit: 'Reddit',
  facebook: 'Facebook',
  yahoo: 'Yahoo',
  instagram: 'Instagram',
  jobTitle: 'Job title',
  personalWebsite: 'Personal website',
  workPhoneNumber: 'Work phone',
  workEmail: 'Work email',
};

/** An identity from Proton's identity content (its 30-odd keys, extra details and sections). */
export function protonIdentity(name: string, content: Json): TransferItem {
  const item = emptyTransferItem('identity', nameFor(name, [], ''));
  const identity = Object.fromEntries(
    [...IDENTITY_FIELDS, 'ssn', 'passport', 'license'].map((key) => [key, '']),
  ) as TransferIdentity;
  // The company is Lockit's; the organization too when there is no company.
  if (str(content.company) === '' && str(content.organization) !== '')
    content = { ...content, company: content.organization, organization: '' };
  for (const [key, value] of Object.entries(content)) {
    if (key === 'note') continue;
    const target = ownValue(IDENTITY_KEYS, key);
    if (target !== undefined) identity[target] = str(value);
    else if (Array.isArray(value) && key.startsWith('extra') && key !== 'extraSections') item.fields.push(...extraFields(value));
    else if (key === 'extraSections' && Array.isArray(value)) {
      for (const section of value) {
        if (!isObject(section)) continue;
        const sectionName = str(section.sectionName).trim();
        for (const field of extraFields(section.sectionFields)) {
          item.fields.push(sectionName ? { ...field, label: `${sectionName}: ${field.label}` } : field);
        }
      }
    } else if (str(value) !== '')
      item.fields.push({ label: ownValue(IDENTITY_LABELS, key) ?? key, kind: 'text', value: str(value) });
  }
  item.identity = identity;
  item.notes = str(content.note);
  return item;
}

/** Any other content (Wi-Fi, SSH key, custom, a type Lockit does not know): a note keeping every value. */
export function protonOtherAsNote(name: string, type: string, content: Json): TransferItem {
  const item = emptyTransferItem('note', nameFor(name, [], ''));
  const secret = new Set(['password', 'privateKey']);
  for (const [key, value] of Object.entries(content)) {
    if (key === 'sections' && Array.isArray(value)) {
      for (const section of value) {
        if (isObject(section)) item.fields.push(...extraFields(section.sectionFields));
      }
    } else if (Array.isArray(value) || isObject(value)) {
      if (JSON.stringify(value) !== '[]' && JSON.stringify(value) !== '{}')
        item.fields.push({ label: key, kind: 'text', value: JSON.stringify(value) });
    } else if (str(value) !== '') {
      item.fields.push({ label: key, kind: secret.has(key) ? 'hidden' : 'text', value: str(value) });
    }
  }
  item.fields.unshift({ label: 'Proton type', kind: 'text', value: type });
  return item;
}

export { extraFields as protonExtraFields };
