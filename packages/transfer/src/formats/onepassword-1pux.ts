import { ImportFileError, type ImportFile, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import {
  emptyTransferItem,
  type TransferAttachment,
  type TransferField,
  type TransferIdentity,
  type TransferItem,
  emptyTransferIdentity,
} from '../transfer-item';
import { fieldOf, isoDate, nameFor, ownValue } from './item-rules';
import { exportDataSchema, type OnePuxField, type OnePuxItem } from './onepassword-1pux-schema';
import { readExportData, zipEntryNames } from './onepassword-1pux-zip';

/** 1Password's category numbers (categoryUuid) and what each becomes in Lockit. */
const CATEGORIES: Record<string, string> = {
  '001': 'Login',
  '002': 'Credit Card',
  '003': 'Secure Note',
  '004': 'Identity',
  '005': 'Password',
  '006': 'Document',
  '100': 'Software License',
  '101': 'Bank Account',
  '102': 'Database',
  '103': 'Driver License',
  '104': 'Outdoor License',
  '105': 'Membership',
  '106': 'Passport',
  '107': 'Reward Program',
  '108': 'Social Security Number',
  '109': 'Wireless Router',
  '110': 'Server',
  '111': 'Email Account',
  '112': 'API Credential',
  '113': 'Medical Record',
  '114': 'SSH Key',
  '115': 'Crypto Wallet',
};

export const onePasswordPuxFormat: ImportFormat = {
  id: '1pux',
  label: '1Password (.1pux)',
  detect(file) {
    // By the archive's own list of entries, never the file's name: a renamed .1pux is still one.
    const names = zipEntryNames(file.bytes);
    if (names.has('export.data') && names.has('export.attributes')) return 0.95;
    return names.has('export.data') ? 0.6 : 0;
  },
  async parse(file) {
    return parse1pux(file);
  },
};

function parse1pux(file: ImportFile): ParseResult {
  const { text, files } = readExportData(file.bytes);
  const archive = new ArchiveFiles(files);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ImportFileError('export.data in the archive is not valid JSON: the export is damaged.');
  }
  const parsed = exportDataSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportFileError(
      `export.data is not a 1Password export: ${issue ? `${issue.path.join('.') || 'the top level'} ${issue.message}` : 'unexpected content'}.`,
    );
  }
  const vaults = parsed.data.accounts.flatMap((account) => account.vaults);
  const items: TransferItem[] = [];
  const skipped: SkippedRecord[] = [];
  let number = 0;
  for (const vault of vaults) {
    // One vault is the person's whole vault; several are kept apart as folders named after them.
    const folder = vaults.length > 1 ? vault.attrs?.name?.trim() || 'Vault' : null;
    for (const input of vault.items) {
      number++;
      const title = input.overview?.title ?? '';
      if (input.trashed === true || input.state === 'trashed' || input.state === 'deleted') {
        skipped.push({
          line: number,
          reason: `Item ${number} ("${title || 'Untitled'}") is in 1Password's trash: not imported.`,
        });
        continue;
      }
      const item = itemOf(input, archive, skipped, number);
      item.folder = folder;
      items.push(item);
    }
  }
  const left = archive.unclaimed();
  if (left > 0) {
    skipped.push({
      line: null,
      reason: `${left} ${left === 1 ? 'file in the archive belongs' : 'files in the archive belong'} to no imported item (a trashed one, or none): not imported.`,
    });
  }
  return { format: '1pux', items, skipped };
}

/** A file an item points at: a Document's own file or a file field of a section. */
interface FileRef {
  fileName: string;
  documentId: string;
}

/**
 * The files under files/ of the archive, each named "<documentId>__<fileName>" by 1Password,
 * found by the document id an item names; each is claimed by at most one item.
 */
class ArchiveFiles {
  private readonly byId = new Map<string, Uint8Array>();
  constructor(files: ReadonlyMap<string, Uint8Array>) {
    for (const [path, bytes] of files) {
      const name = path.slice('files/'.length);
      const split = name.indexOf('__');
      this.byId.set(split === -1 ? name : name.slice(0, split), bytes);
    }
  }

  claim(documentId: string): Uint8Array | null {
    const bytes = this.byId.get(documentId) ?? null;
    this.byId.delete(documentId);
    return bytes;
  }

  unclaimed(): number {
    return this.byId.size;
  }
}

function fileRefOf(value: unknown): FileRef | null {
  if (typeof value !== 'object' || value === null) return null;
  const { fileName, documentId } = value as Record<string, unknown>;
  if (typeof documentId !== 'string' || documentId === '') return null;
  return { fileName: typeof fileName === 'string' && fileName.trim() !== '' ? fileName : 'attachment', documentId };
}

function itemOf(input: OnePuxItem, archive: ArchiveFiles, skipped: SkippedRecord[], number: number): TransferItem {
  const details = input.details ?? {};
  const overview = input.overview ?? {};
  const category = input.categoryUuid ?? '';
  const urls = (overview.urls ?? []).map((url) => (url.url ?? url.href ?? '').trim()).filter((url) => url !== '');
  if (urls.length === 0 && (overview.url ?? '').trim() !== '') urls.push((overview.url ?? '').trim());

  const type =
    category === '001' || category === '005' ? 'login' : category === '002' ? 'card' : category === '004' ? 'identity' : 'note';
  const fields: TransferField[] = [];
  const item = emptyTransferItem(type, '');
  item.notes = details.notesPlain ?? '';
  item.tags = [...new Set((overview.tags ?? []).map((tag) => tag.trim()).filter((tag) => tag !== ''))];
  item.favorite = (input.favIndex ?? 0) > 0;
  item.createdAt = isoDate(input.createdAt ?? null);
  item.updatedAt = isoDate(input.updatedAt ?? null);
  if (input.state === 'archived') item.tags.push('1Password archive');
  item.passwordHistory = [...(details.passwordHistory ?? [])]
    .filter((entry) => (entry.value ?? '') !== '')
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0))
    .map((entry) => ({ password: entry.value ?? '', changedAt: isoDate(entry.time ?? null) }));
  if (type === 'login') item.urls = urls;
  else for (const url of urls) fields.push(...fieldOf('Website', url));

  for (const field of details.loginFields ?? []) {
    const value = field.value ?? '';
    if (field.designation === 'username' && item.username === '') item.username = value;
    else if (field.designation === 'password' && item.password === '') item.password = value;
    else fields.push(...fieldOf(field.name || field.designation || 'Field', value, field.fieldType === 'P' ? 'hidden' : 'text'));
  }
  if (category === '005' && item.password === '') item.password = details.password ?? '';
  else if ((details.password ?? '') !== '') fields.push(...fieldOf('Password', details.password ?? '', 'hidden'));

  const refs: FileRef[] = [];
  const document = fileRefOf(details.documentAttributes);
  if (document) refs.push(document);
  const card = type === 'card' ? { holder: '', brand: '', number: '', code: '', expMonth: '', expYear: '' } : null;
  const identity = type === 'identity' ? emptyTransferIdentity() : null;
  for (const section of details.sections ?? []) {
    for (const field of section.fields ?? []) {
      if (card && cardField(card, field)) continue;
      if (identity && identityField(identity, field)) continue;
      const file = fileRefOf(field.value?.file);
      if (file) {
        refs.push(file);
        continue;
      }
      const [kind, value] = fieldValue(field);
      if (kind === 'totp' && item.totp === '') {
        item.totp = value.trim();
        continue;
      }
      const label = field.title?.trim() || section.title?.trim() || field.id?.trim() || 'Field';
      fields.push(...fieldOf(label, value, kind === 'concealed' || kind === 'totp' || kind === 'sshKey' ? 'hidden' : 'text'));
    }
  }
  if (category !== '' && !['001', '002', '003', '004', '005'].includes(category)) {
    fields.unshift({ label: '1Password category', kind: 'text', value: ownValue(CATEGORIES, category) ?? category });
  }
  const attachments: TransferAttachment[] = [];
  for (const ref of refs) {
    const bytes = archive.claim(ref.documentId);
    if (bytes) attachments.push({ name: ref.fileName, bytes });
    else
      skipped.push({
        line: number,
        reason: `Item ${number} ("${overview.title || 'Untitled'}"): the file "${ref.fileName}" is not in the archive, so it was not imported (the item's other details were).`,
      });
  }
  if (attachments.length > 0) item.attachments = attachments;
  item.card = card;
  item.identity = identity;
  item.fields = fields;
  item.name = nameFor(overview.title ?? '', item.urls, item.username);
  return item;
}

/** A section field's kind and its value as text; nothing a field holds is dropped. */
function fieldValue(field: OnePuxField): [string, string] {
  const entries = Object.entries(field.value ?? {});
  const [kind, raw] = entries[0] ?? ['string', ''];
  if (raw === null || raw === undefined) return [kind, ''];
  if (kind === 'monthYear' && typeof raw === 'number') return [kind, monthYear(raw).join('/')];
  if (kind === 'date' && typeof raw === 'number') return [kind, isoDate(raw)?.slice(0, 10) ?? String(raw)];
  if (kind === 'address' && typeof raw === 'object') {
    const address = raw as Record<string, unknown>;
    const parts = ['street', 'city', 'state', 'zip', 'country'].map((key) => String(address[key] ?? '').trim());
    return [kind, parts.filter((part) => part !== '').join(', ')];
  }
  if (kind === 'email' && typeof raw === 'object') {
    // Newer exports wrap the address: {"email_address": "...", "provider": ...}.
    const address = (raw as Record<string, unknown>).email_address;
    if (typeof address === 'string') return [kind, address];
  }
  if (kind === 'sshKey' && typeof raw === 'object') {
    const key = raw as Record<string, unknown>;
    return [kind, String(key.privateKey ?? '')];
  }
  if (typeof raw === 'object') return [kind, JSON.stringify(raw)];
  return [kind, String(raw)];
}

/** 209912 → ['12', '2099']. */
function monthYear(value: number): [string, string] {
  const year = Math.floor(value / 100);
  const month = value % 100;
  return [String(month).padStart(2, '0'), String(year)];
}

function cardField(card: NonNullable<TransferItem['card']>, field: OnePuxField): boolean {
  const [kind, value] = fieldValue(field);
  switch (field.id) {
    case 'cardholder':
      card.holder = value;
      return true;
    case 'type':
      card.brand = value;
      return true;
    case 'ccnum':
      card.number = value.replace(/\s/g, '');
      return true;
    case 'cvv':
      card.code = value;
      return true;
    case 'expiry': {
      if (kind !== 'monthYear') return false;
      [card.expMonth, card.expYear] = value.split('/') as [string, string];
      return true;
    }
    default:
      return false;
  }
}

const IDENTITY_IDS: Record<string, keyof TransferIdentity> = {
  firstname: 'firstName',
  initial: 'middleName',
  lastname: 'lastName',
  company: 'company',
  email: 'email',
  defphone: 'phone',
};

function identityField(identity: TransferIdentity, field: OnePuxField): boolean {
  const id = field.id ?? '';
  const value = field.value ?? {};
  if (id === 'address' && typeof value.address === 'object' && value.address !== null) {
    const address = value.address as Record<string, unknown>;
    identity.address1 = String(address.street ?? '');
    identity.city = String(address.city ?? '');
    identity.state = String(address.state ?? '');
    identity.postalCode = String(address.zip ?? '');
    identity.country = String(address.country ?? '');
    return true;
  }
  const key = ownValue(IDENTITY_IDS, id);
  if (key === undefined || identity[key] !== '') return false;
  identity[key] = fieldValue(field)[1];
  return true;
}
