import type { TransferItem } from '../transfer-item';
import { fieldOf, isoDate } from './item-rules';

/**
 * Keeper's custom_fields: an object whose keys are "$type:label::n" ("$text:Account::1",
 * "$oneTimeCode::1", "$paymentCard::1") or a bare label, and whose values are text, a list,
 * or an object (a name, an address, a phone, a card, a key pair). Each one lands in the item's
 * own place or becomes custom fields; nothing is dropped but Keeper's own fill settings.
 */
export function keeperCustomFields(item: TransferItem, custom: Record<string, unknown>): void {
  for (const [key, raw] of Object.entries(custom)) {
    const { type, label } = parseKey(key);
    const values = Array.isArray(raw) ? (raw as unknown[]) : raw === null || raw === undefined ? [] : [raw];
    for (const value of values) place(item, type, label, value);
  }
}

/** "$text:Account::1" → text / Account; "$oneTimeCode::1" → oneTimeCode / ''; "Color" → '' / Color. */
function parseKey(key: string): { type: string; label: string } {
  const trimmed = key.replace(/:?:\d+$/, '');
  if (!trimmed.startsWith('$')) return { type: '', label: trimmed.trim() };
  const colon = trimmed.indexOf(':');
  return colon === -1
    ? { type: trimmed.slice(1).trim(), label: '' }
    : { type: trimmed.slice(1, colon).trim(), label: trimmed.slice(colon + 1).trim() };
}

const HIDDEN_TYPES = new Set(['secret', 'pinCode', 'password', 'oneTimeCode', 'cardSecurityCode']);

function place(item: TransferItem, type: string, label: string, value: unknown): void {
  const name = label || LABELS.get(type) || type || 'Field';
  const card = item.card;
  if (type === 'oneTimeCode' && typeof value === 'string' && item.totp === '') item.totp = value.trim();
  else if (type === 'url' && typeof value === 'string' && item.type === 'login') item.urls.push(value.trim());
  else if (type === 'paymentCard' && card && isRecord(value)) {
    card.number = text(value.cardNumber).replace(/\s/g, '');
    card.code = text(value.cardSecurityCode);
    const [month = '', year = ''] = text(value.cardExpirationDate).split('/');
    card.expMonth = month === '' ? '' : month.padStart(2, '0');
    card.expYear = year;
  } else if (type === 'text' && label === 'cardholderName' && card && typeof value === 'string') card.holder = value;
  else if (type === 'keyPair' && isRecord(value)) {
    item.fields.push(
      ...fieldOf('Public key', text(value.publicKey)),
      ...fieldOf('Private key', text(value.privateKey), 'hidden'),
    );
  } else if (type === 'host' && isRecord(value)) {
    item.fields.push(...fieldOf('Hostname', text(value.hostName)), ...fieldOf('Port', text(value.port)));
  } else if (type === 'securityQuestion' && isRecord(value)) {
    item.fields.push(
      ...fieldOf('Security question', text(value.question)),
      ...fieldOf('Security question answer', text(value.answer), 'hidden'),
    );
  } else if (type === 'appFiller') {
    // Keeper's own fill settings for desktop apps: no data of the person's.
  } else item.fields.push(...fieldOf(name, valueText(type, value), HIDDEN_TYPES.has(type) ? 'hidden' : 'text'));
}

const LABELS = new Map([
  ['oneTimeCode', 'TOTP'],
  ['pinCode', 'PIN'],
  ['name', 'Name'],
  ['address', 'Address'],
  ['phone', 'Phone'],
  ['email', 'Email'],
  ['birthDate', 'Birth date'],
  ['expirationDate', 'Expires'],
  ['bankAccount', 'Bank account'],
  ['accountNumber', 'Account number'],
  ['url', 'Website'],
]);

/** A value as text: dates (Unix ms) as ISO days, names and addresses joined, other objects as JSON. */
function valueText(type: string, value: unknown): string {
  if ((type === 'date' || type === 'birthDate' || type === 'expirationDate') && typeof value === 'number') {
    return isoDate(value)?.slice(0, 10) ?? String(value);
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (!isRecord(value)) return '';
  if (type === 'name')
    return [value.first, value.middle, value.last]
      .map(text)
      .filter((part) => part !== '')
      .join(' ');
  if (type === 'address') {
    return [value.street1, value.street2, value.city, value.state, value.zip, value.country]
      .map(text)
      .filter((part) => part !== '')
      .join(', ');
  }
  if (type === 'phone') {
    const parts = [value.region ? `(${text(value.region)})` : '', text(value.number), value.ext ? `ext. ${text(value.ext)}` : ''];
    return parts.filter((part) => part !== '').join(' ');
  }
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
