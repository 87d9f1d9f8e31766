import type { CustomFieldKind, UrlMatchRule } from '@lockit/contract';
import type { TransferItem } from '../transfer-item';

/**
 * Bitwarden's URI match types (null: the default; 0 base domain, 1 host, 2 starts with, 3 exact,
 * 4 regular expression, 5 never) as Lockit's rules, for the addresses that have one.
 */
export const BITWARDEN_URI_MATCH: readonly UrlMatchRule[] = ['base-domain', 'host', 'starts-with', 'exact', 'regex', 'never'];

/**
 * Bitwarden's unencrypted JSON export, as its clients write it (libs/common/src/models/export:
 * CipherExport, LoginExport, CardExport, IdentityExport, FieldExport, PasswordHistoryExport)
 * and its importer reads it back: folders with ids, items of type 1 (login), 2 (secure note),
 * 3 (card), 4 (identity). Empty values are null, as Bitwarden writes them.
 *
 * What Bitwarden has no place for is kept, not dropped: tags become a text field named
 * "Tags" (comma-separated); an item from Trash carries `deletedDate`.
 */

export interface BitwardenExport {
  encrypted: false;
  folders: { id: string; name: string }[];
  items: BitwardenItem[];
}

export interface BitwardenField {
  name: string;
  value: string;
  type: 0 | 1 | 2;
  linkedId: null;
}

export interface BitwardenItem {
  passwordHistory: { lastUsedDate: string; password: string }[] | null;
  revisionDate: string;
  creationDate: string;
  deletedDate: string | null;
  id: string;
  organizationId: null;
  folderId: string | null;
  type: 1 | 2 | 3 | 4 | 5;
  reprompt: 0;
  name: string;
  notes: string | null;
  favorite: boolean;
  fields: BitwardenField[];
  login?: {
    uris: { match: number | null; uri: string }[];
    username: string | null;
    password: string | null;
    totp: string | null;
    fido2Credentials: [];
  };
  secureNote?: { type: 0 };
  sshKey?: { privateKey: string; publicKey: string; keyFingerprint: string };
  card?: Record<'cardholderName' | 'brand' | 'number' | 'expMonth' | 'expYear' | 'code', string | null>;
  identity?: Record<BitwardenIdentityField, string | null>;
  collectionIds: null;
}

type BitwardenIdentityField =
  | 'title'
  | 'firstName'
  | 'middleName'
  | 'lastName'
  | 'address1'
  | 'address2'
  | 'address3'
  | 'city'
  | 'state'
  | 'postalCode'
  | 'country'
  | 'company'
  | 'email'
  | 'phone'
  | 'ssn'
  | 'username'
  | 'passportNumber'
  | 'licenseNumber';

/** The label of the field that carries Lockit's tags in formats without tags. */
export const TAGS_FIELD_LABEL = 'Tags';

const FIELD_TYPES: Record<CustomFieldKind, 0 | 1 | 2> = { text: 0, hidden: 1, boolean: 2 };
const ITEM_TYPES = { login: 1, note: 2, card: 3, identity: 4, sshKey: 5 } as const;

const orNull = (value: string) => (value === '' ? null : value);

/** Every folder path and each of its parents ("Work/Banking" needs "Work"), sorted. */
export function folderPaths(items: readonly TransferItem[], folders: readonly string[] = []): string[] {
  const paths = new Set<string>();
  for (const path of [...folders, ...items.map((item) => item.folder)]) {
    if (path === null || path === '') continue;
    const parts = path.split('/');
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
  }
  return [...paths].sort();
}

export interface BitwardenJsonOptions {
  /** Folder paths to keep even when no item is in them. */
  folders?: readonly string[];
  /** The date for items without one (Bitwarden requires dates). */
  now?: string;
  /** Ids for folders and items; random UUIDs by default (tests pass a counter). */
  newId?: () => string;
}

export function toBitwardenExport(items: readonly TransferItem[], options: BitwardenJsonOptions = {}): BitwardenExport {
  const now = options.now ?? new Date().toISOString();
  const newId = options.newId ?? (() => globalThis.crypto.randomUUID());
  const folders = folderPaths(items, options.folders).map((name) => ({ id: newId(), name }));
  const folderIds = new Map(folders.map((folder) => [folder.name, folder.id]));
  return {
    encrypted: false,
    folders,
    items: items.map((item) =>
      bitwardenItem(item, item.folder === null ? null : (folderIds.get(item.folder) ?? null), now, newId()),
    ),
  };
}

/** The export as Bitwarden's clients write it: indented by two spaces. */
export function toBitwardenJson(items: readonly TransferItem[], options: BitwardenJsonOptions = {}): string {
  return JSON.stringify(toBitwardenExport(items, options), null, 2);
}

function bitwardenItem(item: TransferItem, folderId: string | null, now: string, id: string): BitwardenItem {
  const fields: BitwardenField[] = item.fields.map((field) => ({
    name: field.label,
    value: field.value,
    type: FIELD_TYPES[field.kind],
    linkedId: null,
  }));
  if (item.tags.length > 0) fields.push({ name: TAGS_FIELD_LABEL, value: item.tags.join(', '), type: 0, linkedId: null });
  const result: BitwardenItem = {
    passwordHistory:
      item.passwordHistory.length === 0
        ? null
        : item.passwordHistory.map((entry) => ({ lastUsedDate: entry.changedAt ?? now, password: entry.password })),
    revisionDate: item.updatedAt ?? now,
    creationDate: item.createdAt ?? item.updatedAt ?? now,
    deletedDate: item.trashedAt ?? null,
    id,
    organizationId: null,
    folderId,
    type: ITEM_TYPES[item.type],
    reprompt: 0,
    name: item.name,
    notes: orNull(item.notes),
    favorite: item.favorite,
    fields,
    collectionIds: null,
  };
  if (item.type === 'login') {
    result.login = {
      uris: item.urls.map((uri) => {
        const rule = item.urlRules?.[uri];
        return { match: rule ? BITWARDEN_URI_MATCH.indexOf(rule) : null, uri };
      }),
      username: orNull(item.username),
      password: orNull(item.password),
      totp: orNull(item.totp),
      fido2Credentials: [],
    };
  } else if (item.type === 'note') {
    result.secureNote = { type: 0 };
  } else if (item.type === 'sshKey') {
    const key = item.sshKey;
    result.sshKey = {
      privateKey: key?.privateKey ?? '',
      publicKey: key?.publicKey ?? '',
      keyFingerprint: key?.fingerprint ?? '',
    };
  } else if (item.type === 'card') {
    const card = item.card;
    result.card = {
      cardholderName: orNull(card?.holder ?? ''),
      brand: orNull(card?.brand ?? ''),
      number: orNull(card?.number ?? ''),
      expMonth: orNull(card?.expMonth ?? ''),
      expYear: orNull(card?.expYear ?? ''),
      code: orNull(card?.code ?? ''),
    };
  } else {
    const identity = item.identity;
    const value = (key: keyof NonNullable<TransferItem['identity']>) => orNull(identity?.[key] ?? '');
    result.identity = {
      title: value('title'),
      firstName: value('firstName'),
      middleName: value('middleName'),
      lastName: value('lastName'),
      address1: value('address1'),
      address2: value('address2'),
      address3: null,
      city: value('city'),
      state: value('state'),
      postalCode: value('postalCode'),
      country: value('country'),
      company: value('company'),
      email: value('email'),
      phone: value('phone'),
      ssn: value('ssn'),
      username: null,
      passportNumber: value('passport'),
      licenseNumber: value('license'),
    };
  }
  return result;
}
