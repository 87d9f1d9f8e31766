import { IDENTITY_FIELDS, type UrlMatchRule } from '@lockit/contract';
import { decodeText } from '../csv/decode-text';
import { BITWARDEN_URI_MATCH, TAGS_FIELD_LABEL } from '../export/bitwarden-json';
import { ImportFileError, type ImportFile, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import { emptyTransferItem, type TransferField, type TransferIdentity, type TransferItem } from '../transfer-item';
import { bitwardenItemSchema, bitwardenPlainSchema, type BitwardenItemInput } from './bitwarden-json-schema';
import { bitwardenProtectedSchema, openBitwardenProtected } from './bitwarden-protected';
import { hasContent, nameFor, ownValue } from './item-rules';
import { parseJson } from './read-json';

/** What a linked field (type 3) points at, by Bitwarden's LinkedIdType numbers. */
const LINKED_TARGETS: Record<number, string> = {
  100: 'Username',
  101: 'Password',
  300: 'Cardholder name',
  301: 'Expiration month',
  302: 'Expiration year',
  303: 'Security code',
  304: 'Brand',
  305: 'Number',
  400: 'Title',
  401: 'Middle name',
  402: 'Address 1',
  403: 'Address 2',
  404: 'Address 3',
  405: 'City',
  406: 'State',
  407: 'Postal code',
  408: 'Country',
  409: 'Company',
  410: 'Email',
  411: 'Phone',
  412: 'SSN',
  413: 'Username',
  414: 'Passport number',
  415: 'License number',
  416: 'First name',
  417: 'Last name',
  418: 'Full name',
};

const TYPE_NAMES: Record<number, string> = { 1: 'login', 2: 'secure note', 3: 'card', 4: 'identity', 5: 'SSH key' };

const s = (value: string | null | undefined): string => value ?? '';

/** Custom fields, Bitwarden's types mapped: 0 text, 1 hidden, 2 boolean, 3 linked (as text naming its target). */
function fieldsOf(input: BitwardenItemInput): TransferField[] {
  return (input.fields ?? []).map((field) => {
    const label = s(field.name).trim() || 'Field';
    const value = field.value === null || field.value === undefined ? '' : String(field.value);
    if (field.type === 1) return { label, kind: 'hidden', value };
    if (field.type === 2) return { label, kind: 'boolean', value: value.toLowerCase() === 'true' ? 'true' : 'false' };
    if (field.type === 3) {
      const target = LINKED_TARGETS[field.linkedId ?? -1] ?? `field ${field.linkedId ?? '?'}`;
      return { label, kind: 'text', value: value || `Linked to ${target}` };
    }
    return { label, kind: 'text', value };
  });
}

function identityOf(identity: Record<string, string | null | undefined>, fields: TransferField[]): TransferIdentity {
  const result = Object.fromEntries(IDENTITY_FIELDS.map((name) => [name, s(identity[name])])) as TransferIdentity;
  result.ssn = s(identity.ssn);
  result.passport = s(identity.passportNumber);
  result.license = s(identity.licenseNumber);
  // Lockit's identity has two address lines and no user name: those become fields.
  if (s(identity.address3) !== '') fields.push({ label: 'Address 3', kind: 'text', value: s(identity.address3) });
  if (s(identity.username) !== '') fields.push({ label: 'Username', kind: 'text', value: s(identity.username) });
  return result;
}

/** One Bitwarden item as a TransferItem, or the reason it cannot be one. */
export function bitwardenItemToTransfer(
  input: BitwardenItemInput,
  folders: Map<string, string>,
  collections: Map<string, string>,
  skipped: SkippedRecord[],
  record: number,
): TransferItem {
  const fields = fieldsOf(input);
  const login = input.login ?? null;
  const urls = (login?.uris ?? []).map((uri) => s(uri.uri)).filter((uri) => uri !== '');
  const typeName = TYPE_NAMES[input.type];
  const sshKey = input.type === 5 && input.sshKey && s(input.sshKey.privateKey) !== '' ? input.sshKey : null;
  const type =
    input.type === 1 ? 'login' : input.type === 3 ? 'card' : input.type === 4 ? 'identity' : sshKey ? 'sshKey' : 'note';
  const item = emptyTransferItem(type, nameFor(s(input.name), urls, s(login?.username)));
  item.notes = s(input.notes);
  item.favorite = input.favorite === true;
  item.folder = input.folderId ? folders.get(input.folderId)?.replace(/^\/+|\/+$/g, '') || null : null;
  item.createdAt = input.creationDate ?? null;
  item.updatedAt = input.revisionDate ?? null;
  if (input.deletedDate) item.trashedAt = input.deletedDate;
  item.passwordHistory = (input.passwordHistory ?? [])
    .filter((entry) => s(entry.password) !== '')
    .map((entry) => ({ password: s(entry.password), changedAt: entry.lastUsedDate ?? null }));
  // Lockit's own Bitwarden export carries tags as a "Tags" text field: read them back as tags.
  const tagsField = fields.find((field) => field.label === TAGS_FIELD_LABEL && field.kind === 'text');
  if (tagsField) {
    item.tags = tagsField.value
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
    fields.splice(fields.indexOf(tagsField), 1);
  }
  for (const id of input.collectionIds ?? []) {
    const collection = id === null ? undefined : collections.get(id);
    if (collection !== undefined && !item.tags.includes(collection)) item.tags.push(collection);
  }
  if (login) {
    item.urls = urls;
    const urlRules = bitwardenUrlRules(login.uris ?? []);
    if (urlRules) item.urlRules = urlRules;
    item.username = s(login.username);
    item.password = s(login.password);
    item.totp = s(login.totp).trim();
    if ((login.fido2Credentials ?? []).length > 0) {
      skipped.push({
        line: null,
        reason: `Item ${record} ("${item.name}"): its passkey was not imported; Lockit does not hold passkeys.`,
      });
    }
  }
  if (input.type === 3 && input.card) {
    const card = input.card;
    item.card = {
      holder: s(card.cardholderName),
      brand: s(card.brand),
      number: s(card.number),
      code: s(card.code),
      expMonth: s(card.expMonth),
      expYear: s(card.expYear),
    };
  }
  if (input.type === 4 && input.identity) item.identity = identityOf(input.identity, fields);
  if (sshKey) {
    // The vault reads the key when it is imported; one it cannot take is kept as a note (transferToDraft).
    item.sshKey = { privateKey: s(sshKey.privateKey), publicKey: s(sshKey.publicKey), fingerprint: s(sshKey.keyFingerprint) };
  } else if (input.type === 5 && input.sshKey) {
    // An SSH key without its private key: a secure note keeping what there is as text fields.
    const key = input.sshKey;
    if (s(key.privateKey) !== '') fields.push({ label: 'Private key', kind: 'hidden', value: s(key.privateKey) });
    if (s(key.publicKey) !== '') fields.push({ label: 'Public key', kind: 'text', value: s(key.publicKey) });
    if (s(key.keyFingerprint) !== '') fields.push({ label: 'Fingerprint', kind: 'text', value: s(key.keyFingerprint) });
  }
  if (typeName === undefined) fields.unshift({ label: 'Bitwarden type', kind: 'text', value: String(input.type) });
  item.fields = fields;
  return item;
}

/** Items of a plain export (the JSON already parsed). */
function itemsOfPlain(json: unknown): { items: TransferItem[]; skipped: SkippedRecord[] } {
  const plain = bitwardenPlainSchema.safeParse(json);
  if (!plain.success) {
    throw new ImportFileError('This is not a Bitwarden JSON export: it has no "items" list.');
  }
  const folders = new Map((plain.data.folders ?? []).map((folder) => [folder.id, folder.name]));
  const collections = new Map((plain.data.collections ?? []).map((collection) => [collection.id, collection.name]));
  const skipped: SkippedRecord[] = [];
  const items: TransferItem[] = [];
  plain.data.items.forEach((raw, index) => {
    const parsed = bitwardenItemSchema.safeParse(raw);
    if (!parsed.success) throw new ImportFileError(shapeProblem(raw, index + 1, parsed.error.issues[0]));
    const item = bitwardenItemToTransfer(parsed.data, folders, collections, skipped, index + 1);
    if (hasContent(item, s(parsed.data.name).trim() !== '')) items.push(item);
    else
      skipped.push({ line: null, reason: `Item ${index + 1}: it is empty (no name, no values), so there is nothing to import.` });
  });
  return { items, skipped };
}

/**
 * One sentence a person can act on for an item Lockit cannot read: which item (by number and
 * name), which value, what it holds and what Bitwarden would have written there.
 */
function shapeProblem(raw: unknown, number: number, issue: { path: PropertyKey[]; expected?: unknown } | undefined): string {
  const name =
    typeof raw === 'object' && raw !== null && typeof (raw as { name?: unknown }).name === 'string'
      ? ` ("${(raw as { name: string }).name.slice(0, 60)}")`
      : '';
  const path = issue?.path ?? [];
  let found: unknown = raw;
  for (const key of path)
    found = typeof found === 'object' && found !== null ? (found as Record<PropertyKey, unknown>)[key] : undefined;
  const expected = ownValue(EXPECTED_WORDS, String(issue?.expected)) ?? 'something else';
  return `Item ${number}${name}: its "${path.map(String).join('.') || 'item'}" holds ${describeValue(found)} where Bitwarden writes ${expected}, so the file was changed after export or is not Bitwarden's. Export the vault from Bitwarden again and import that file.`;
}

const EXPECTED_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a group of values',
};

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a group of values';
  if (typeof value === 'string') return value.length > 1_048_576 ? 'text longer than 1 MB' : 'text';
  return `${typeof value === 'number' ? 'the number' : 'the value'} ${String(value)}`;
}

function looksLikeBitwarden(text: string): number {
  const head = text.slice(0, 4096);
  if (!head.trimStart().startsWith('{')) return 0;
  if (/"passwordProtected"\s*:\s*true/.test(head) && /"encKeyValidation_DO_NOT_EDIT"/.test(head)) return 1;
  // Proton Pass's export also says "encrypted" and has "items", inside "vaults".
  if (/"vaults"\s*:/.test(head)) return 0;
  const items = /"items"\s*:/.test(text.slice(0, 64 * 1024));
  if (/"encrypted"\s*:\s*(false|true)/.test(head) && items) return 0.95;
  // Older exports (before "encrypted" was written): a folders list and items with Bitwarden's own keys.
  if (items && /"folders"\s*:\s*\[/.test(head) && /"(organizationId|folderId|collectionIds)"\s*:/.test(text.slice(0, 64 * 1024)))
    return 0.9;
  return 0;
}

export const bitwardenJsonFormat: ImportFormat = {
  id: 'bitwarden-json',
  label: 'Bitwarden (JSON)',
  detect(file: ImportFile) {
    return looksLikeBitwarden(new TextDecoder().decode(file.bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, ''));
  },
  async parse(file, options): Promise<ParseResult> {
    const json = parseJson(decodeText(file));
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new ImportFileError('This is not a Bitwarden JSON export: the file is not a JSON object.');
    }
    const record = json as Record<string, unknown>;
    let inner: unknown = json;
    if (record.encrypted === true && record.passwordProtected === true) {
      const envelope = bitwardenProtectedSchema.safeParse(json);
      if (!envelope.success)
        throw new ImportFileError('This password-protected Bitwarden export is damaged: its header is incomplete.');
      inner = parseJson(await openBitwardenProtected(envelope.data, options.password));
    } else if (record.encrypted === true) {
      throw new ImportFileError(
        'This Bitwarden export is encrypted with its Bitwarden account\'s key, which only that account can open. In Bitwarden, export again as "JSON" or "JSON (Encrypted)" with "Password protected", and import that file.',
      );
    }
    const { items, skipped } = itemsOfPlain(inner);
    options.onProgress?.(1);
    return { format: 'bitwarden-json', items, skipped };
  },
};

function bitwardenUrlRules(uris: readonly { uri?: string | null | undefined; match?: number | null | undefined }[]) {
  const rules: Record<string, UrlMatchRule> = {};
  for (const uri of uris) {
    const address = s(uri.uri);
    const rule = typeof uri.match === 'number' ? BITWARDEN_URI_MATCH[uri.match] : undefined;
    if (address !== '' && rule) rules[address] = rule;
  }
  return Object.keys(rules).length > 0 ? rules : undefined;
}
