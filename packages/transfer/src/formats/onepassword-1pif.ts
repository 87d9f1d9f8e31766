import { decodeText } from '../csv/decode-text';
import { ImportFileError, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import { emptyTransferIdentity, emptyTransferItem, type TransferItem } from '../transfer-item';
import { ONEPASSWORD_CARD_IDS, ONEPASSWORD_IDENTITY_IDS } from './onepassword-field-ids';
import { fieldOf, hasContent, isoDate, nameFor, ownValue } from './item-rules';

/**
 * 1Password 4-7's `.1pif` ("1Password Interchange Format", data.1pif in its folder): one JSON
 * object per line, separated by `***5642bee8-a5ff-11dc-8314-0800200c9a66***` lines. An object
 * has a typeName (webforms.WebForm, passwords.Password, wallet.financial.CreditCard,
 * identities.Identity, securenotes.SecureNote, system.folder.Regular, system.Tombstone, ...),
 * a title, a location (the first address), createdAt/updatedAt in Unix seconds, folderUuid,
 * trashed, openContents.tags and faveIndex, and secureContents: login fields
 * `{designation, name, type, value}`, URLs, notesPlain, passwordHistory and sections whose
 * fields are `{k: kind, n: id, t: title, v: value}`.
 */
const SEPARATOR = /^\*\*\*[0-9a-f-]{36}\*\*\*$/;

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const onePasswordPifFormat: ImportFormat = {
  id: '1pif',
  label: '1Password (.1pif)',
  detect(file) {
    const head = new TextDecoder().decode(file.bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, '');
    if (!head.trimStart().startsWith('{') || !/"typeName"\s*:/.test(head)) return 0;
    return /^\*\*\*[0-9a-f-]{36}\*\*\*\r?$/m.test(head) ? 0.95 : 0.7;
  },
  async parse(file, options): Promise<ParseResult> {
    const records = readRecords(decodeText(file));
    const folders = folderPaths(records.map(({ record }) => record));
    const items: TransferItem[] = [];
    const skipped: SkippedRecord[] = [];
    for (const { line, record } of records) {
      const type = str(record.typeName);
      const title = str(record.title) || 'Untitled';
      if (type === 'system.folder.Regular' || type === 'system.folder.SavedSearch') continue;
      if (type === 'system.Tombstone') {
        skipped.push({ line, reason: `Line ${line}: a record of an item deleted in 1Password: not imported.` });
        continue;
      }
      if (record.trashed === true) {
        skipped.push({ line, reason: `Line ${line}: "${title}" is in 1Password's trash: not imported.` });
        continue;
      }
      const item = itemOf(record, type);
      item.folder = folders.get(str(record.folderUuid)) ?? null;
      if (hasContent(item, false)) items.push(item);
      else skipped.push({ line, reason: `Line ${line}: "${item.name}" has nothing in it but its title.` });
    }
    options.onProgress?.(1);
    return { format: '1pif', items, skipped };
  },
};

function readRecords(text: string): { line: number; record: Json }[] {
  const records: { line: number; record: Json }[] = [];
  text.split(/\r\n?|\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || SEPARATOR.test(trimmed)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    if (!isJson(parsed)) {
      throw new ImportFileError(
        `Line ${line}: this line is not a 1Password record (each line of a .1pif is one JSON object); the file was cut short or changed. Export it from 1Password again.`,
        line,
      );
    }
    records.push({ line, record: parsed });
  });
  if (records.length === 0) throw new ImportFileError('The file holds no 1Password records.');
  return records;
}

/** Each folder record's path, nested by its own folderUuid; a loop or a missing parent ends it. */
function folderPaths(records: Json[]): Map<string, string> {
  const byId = new Map(
    records.filter((record) => str(record.typeName) === 'system.folder.Regular').map((record) => [str(record.uuid), record]),
  );
  const paths = new Map<string, string>();
  for (const [id, folder] of byId) {
    const parts: string[] = [];
    const seen = new Set<string>();
    for (let at: Json | undefined = folder; at && !seen.has(str(at.uuid)); at = byId.get(str(at.folderUuid))) {
      seen.add(str(at.uuid));
      parts.unshift(str(at.title).trim().replace(/\//g, '-') || 'Folder');
    }
    paths.set(id, parts.join('/'));
  }
  return paths;
}

function itemOf(record: Json, typeName: string): TransferItem {
  const secure = isJson(record.secureContents) ? record.secureContents : {};
  const open = isJson(record.openContents) ? record.openContents : {};
  const kind =
    typeName === 'webforms.WebForm' || typeName === 'passwords.Password'
      ? 'login'
      : typeName === 'wallet.financial.CreditCard'
        ? 'card'
        : typeName === 'identities.Identity'
          ? 'identity'
          : 'note';
  const item = emptyTransferItem(kind, '');
  const urls = [str(record.location), ...list(secure.URLs).map((url) => (isJson(url) ? str(url.url) : ''))]
    .map((url) => url.trim())
    .filter((url, index, all) => url !== '' && all.indexOf(url) === index);
  if (kind === 'login') item.urls = urls;
  else for (const url of urls) item.fields.push(...fieldOf('Website', url));
  if (kind === 'card') item.card = { holder: '', brand: '', number: '', code: '', expMonth: '', expYear: '' };
  if (kind === 'identity') item.identity = emptyTransferIdentity();
  if (kind === 'note' && typeName !== 'securenotes.SecureNote' && typeName !== '')
    item.fields.push({ label: '1Password category', kind: 'text', value: typeName });

  for (const field of list(secure.fields).filter(isJson)) {
    const value = str(field.value);
    const designation = str(field.designation);
    if (kind === 'login' && designation === 'username' && item.username === '') item.username = value;
    else if (kind === 'login' && designation === 'password' && item.password === '') item.password = value;
    else item.fields.push(...fieldOf(str(field.name) || designation || 'Field', value, field.type === 'P' ? 'hidden' : 'text'));
  }
  if (typeName === 'passwords.Password' && item.password === '') item.password = str(secure.password);
  else item.fields.push(...fieldOf('Password', str(secure.password), 'hidden'));
  for (const section of list(secure.sections).filter(isJson)) {
    for (const field of list(section.fields).filter(isJson)) sectionField(item, field);
  }
  item.notes = str(secure.notesPlain);
  item.name = nameFor(str(record.title), item.urls, item.username);
  item.tags = [
    ...new Set(
      list(open.tags)
        .map(str)
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    ),
  ];
  item.favorite = typeof open.faveIndex === 'number' || typeof record.faveIndex === 'number';
  item.createdAt = isoDate(record.createdAt);
  item.updatedAt = isoDate(record.updatedAt);
  item.passwordHistory = list(secure.passwordHistory)
    .filter(isJson)
    .filter((entry) => str(entry.value) !== '')
    .sort((a, b) => Number(b.time ?? 0) - Number(a.time ?? 0))
    .map((entry) => ({ password: str(entry.value), changedAt: isoDate(entry.time) }));
  return item;
}

function sectionField(item: TransferItem, field: Json): void {
  const id = str(field.n);
  const kind = str(field.k);
  const raw = field.v;
  const value = valueText(kind, raw);
  if (value === '') return;
  const card = item.card;
  const cardKey = card ? ownValue(ONEPASSWORD_CARD_IDS, id) : undefined;
  const identityKey = item.identity ? ownValue(ONEPASSWORD_IDENTITY_IDS, id) : undefined;
  if (id.startsWith('TOTP_') && item.totp === '') item.totp = value.trim();
  else if (card && cardKey !== undefined && card[cardKey] === '')
    card[cardKey] = cardKey === 'number' ? value.replace(/\s/g, '') : value;
  else if (card && id === 'expiry' && kind === 'monthYear' && /^\d{6}$/.test(value)) {
    card.expYear = value.slice(0, 4);
    card.expMonth = value.slice(4);
  } else if (item.identity && identityKey !== undefined && item.identity[identityKey] === '') item.identity[identityKey] = value;
  else if (item.identity && id === 'address' && isJson(raw)) {
    item.identity.address1 = str(raw.street);
    item.identity.city = str(raw.city);
    item.identity.state = str(raw.state);
    item.identity.postalCode = str(raw.zip);
    item.identity.country = str(raw.country);
  } else item.fields.push(...fieldOf(str(field.t) || id || 'Field', value, kind === 'concealed' ? 'hidden' : 'text'));
}

/** A section value as text: dates (Unix seconds) as days, addresses joined, other objects as JSON. */
function valueText(kind: string, raw: unknown): string {
  if (kind === 'date' && typeof raw === 'number') return isoDate(raw)?.slice(0, 10) ?? String(raw);
  if (kind === 'address' && isJson(raw)) {
    return ['street', 'city', 'state', 'zip', 'country']
      .map((key) => str(raw[key]).trim())
      .filter((part) => part !== '')
      .join(', ');
  }
  if (isJson(raw) || Array.isArray(raw)) return JSON.stringify(raw);
  return raw === null || raw === undefined ? '' : String(raw);
}
