import type {
  CardOverview,
  CustomField,
  CustomFieldKind,
  EntryType,
  FileRef,
  IdentityOverview,
  SshKeyOverview,
  UrlMatchRule,
} from '@lockit/contract';
import type { EntryFieldSet } from '@lockit/crypto';
import { foldForSearch } from './search-text';

/**
 * One entry of the vault as the screen holds it after the up-front decryption: what the list
 * shows, filters and searches in the clear (service name, user name, web addresses and the
 * rest of the overview document); the password, notes and details document still sealed
 * (decrypted only on reveal, copy or edit, see seal-entry.ts `openSecrets`).
 *
 * It is also a structural `EntrySummary` of lib/entry-filter.ts.
 */
export interface OpenEntry {
  status: 'open';
  id: string;
  type: EntryType;
  serviceName: string;
  /** The same as serviceName: the name EntrySummary (lib/entry-filter.ts) reads. */
  name: string;
  username: string;
  /** The spec's `url` field: the first web address of a login. */
  url: string | null;
  /** Every web address (a login's; empty for the other types). */
  urls: string[];
  /** The match rule of each address that has its own (by address); absent when none has. */
  urlRules?: Readonly<Record<string, UrlMatchRule>>;
  tags: string[];
  /** May name a folder that no longer exists (deleted elsewhere): then it is in no folder. */
  folderId: string | null;
  favorite: boolean;
  hasTotp: boolean;
  /** Custom fields; a hidden field comes without its value (it is in the details document). */
  fields: CustomField[];
  card: CardOverview | null;
  identity: IdentityOverview | null;
  /** An SSH key's public half (absent or null for the other types). */
  sshKey?: SshKeyOverview | null;
  /**
   * The files the item lists (decision 0084); absent when it never listed them (saved before
   * that, or imported): its files are then the ones the server serves, unchecked.
   */
  files?: readonly FileRef[];
  /** Ids of files deleted for good (decision 0084); absent when none was. */
  deletedFiles?: readonly string[];
  createdAt: string;
  updatedAt: string;
  /** When it went to Trash; null while it is live. */
  deletedAt: string | null;
  revision: number;
  /**
   * 'item': sealed with the field set (format v2, it has an overview); 'legacy': saved before
   * items (format v1), opened as a login and saved again in the item format after unlock.
   */
  format: 'item' | 'legacy';
  /**
   * Ciphertexts bound to this id, opened one entry at a time, on demand. `fieldSet` is the set
   * the entry was sealed with (undefined for a legacy entry): every field opens only with it.
   */
  sealed: { password: string; notes: string | null; details: string | null; fieldSet: EntryFieldSet | undefined };
  /** nameSortKey(service name): the sort key (no case, no accents, numbers by value). */
  sortKey: string;
  /**
   * Folded (lowercase, no accents: foldForSearch) service name, user name, web addresses,
   * tags and folder name, one per line, for search as you type.
   */
  searchText: string;
}

/**
 * An entry that did not decrypt or did not match the wire contract ('undecryptable'), or
 * came at a lower revision than this tab already saw ('rolled-back'). Nothing of it is shown
 * (never wrong data, nor old data as if current); it can only be moved to Trash and purged.
 * `revision` is the server's number when it sent one (a delete must name it), else null;
 * `deletedAt` likewise, so a damaged entry in Trash stays in Trash.
 */
export interface DamagedEntry {
  status: 'damaged';
  reason: DamageReason;
  id: string;
  createdAt: string;
  revision: number | null;
  deletedAt: string | null;
  sortKey: '';
  searchText: '';
}

export type VaultEntry = OpenEntry | DamagedEntry;

export type DamageReason = 'undecryptable' | 'rolled-back';

export const DAMAGED_MESSAGE = 'This entry could not be decrypted. It may have been changed on the server.';
export const ROLLED_BACK_MESSAGE =
  'This entry is older than the version this tab has already shown. The server may have rolled it back.';

export const DAMAGE_MESSAGES: Record<DamageReason, string> = {
  undecryptable: DAMAGED_MESSAGE,
  'rolled-back': ROLLED_BACK_MESSAGE,
};

export function damagedEntry(
  id: string,
  createdAt = '',
  reason: DamageReason = 'undecryptable',
  { revision = null, deletedAt = null }: { revision?: number | null; deletedAt?: string | null } = {},
): DamagedEntry {
  return { status: 'damaged', reason, id, createdAt, revision, deletedAt, sortKey: '', searchText: '' };
}

/** A custom field as the editor holds it: a hidden field's value too, a boolean's as 'true' / 'false'. */
export interface DraftField {
  id: string;
  label: string;
  kind: CustomFieldKind;
  value: string;
}

export interface CardDraft {
  holder: string;
  brand: string;
  number: string;
  code: string;
  expMonth: string;
  expYear: string;
}

export type IdentityDraft = IdentityOverview & { ssn: string; passport: string; license: string };

/** An SSH key as the editor holds it: the OpenSSH private key text and a comment for the list. */
export interface SshKeyDraft {
  privateKey: string;
  comment: string;
}

/**
 * The editor's whole content, secrets included; what sealEntry turns into the wire body.
 * Empty strings mean "none" (an empty URL is dropped, empty notes are not stored).
 * `card` is used by a card, `identity` by an identity; `username`, `password`, `urls` and
 * `totp` by a login; notes, custom fields, tags, folder and favourite by every type.
 */
export interface EntryDraft {
  type: EntryType;
  serviceName: string;
  username: string;
  password: string;
  urls: string[];
  /** Match rules of addresses that do not follow the extension's default, by address as typed. */
  urlRules?: Record<string, UrlMatchRule>;
  notes: string;
  /** A base32 secret or an otpauth:// URI, as the person gave it; '' for none. */
  totp: string;
  fields: DraftField[];
  card: CardDraft | null;
  identity: IdentityDraft | null;
  /** An SSH key item's key; its public half and fingerprint are derived from it when saved. */
  sshKey?: SshKeyDraft | null;
  /**
   * The item's files, carried through every edit as they are (the form does not change
   * them; the item view's file actions do). Absent: the item never listed its files.
   */
  files?: FileRef[];
  /** Ids of files deleted for good, carried like `files`. */
  deletedFiles?: string[];
  tags: string[];
  folderId: string | null;
  favorite: boolean;
}

/** What an entry's secrets open to (on reveal, copy or edit); never kept beyond their use. */
export interface EntrySecrets {
  password: string;
  notes: string;
  /** The TOTP seed, or null when the entry has none. */
  totp: string | null;
  /** Values of hidden custom fields, by field id. */
  hidden: Readonly<Record<string, string>>;
  card: { number: string; code: string } | null;
  identity: { ssn: string; passport: string; license: string } | null;
  /** An SSH key item's private key (OpenSSH format), or null. */
  sshKey?: { privateKey: string } | null;
}

/** A folder with its name decrypted. Nesting is by name: "Work/Banking" sits in "Work". */
export interface OpenFolder {
  id: string;
  name: string;
  revision: number;
}

/** What every action of useEntryActions resolves to: never a rejection the screen must catch. */
export type ActionResult = { ok: true } | { ok: false; message: string };

/**
 * By service name ignoring case, then by creation time, then by id: a total order, so the
 * list never reshuffles between renders. Plain code-unit comparison of prepared keys keeps a
 * sort of 10,000 entries to a few milliseconds (Intl collation would cost ten times more).
 * Damaged entries have an empty key and come first, where they are noticed.
 */
export function compareEntries(a: VaultEntry, b: VaultEntry): number {
  if (a.sortKey !== b.sortKey) return a.sortKey < b.sortKey ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** `query` already normalised (normaliseQuery); an empty query matches everything. */
export function matchesQuery(entry: VaultEntry, query: string): boolean {
  return query === '' || entry.searchText.includes(query);
}

/** The query as search texts are folded: lower case, no accents, single spaces, trimmed. */
export function normaliseQuery(text: string): string {
  return foldForSearch(text);
}
