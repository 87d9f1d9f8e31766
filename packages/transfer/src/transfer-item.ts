import {
  IDENTITY_FIELDS,
  type CustomFieldKind,
  type EntryType,
  type IdentityOverview,
  type UrlMatchRule,
} from '@lockit/contract';

/**
 * One item as an import yields it and an export writes it: every kind of Lockit item, in the
 * clear, without ids or revisions. Importers fill what their format has and leave the rest
 * empty ('' / [] / null); nothing a file holds is dropped: a value with no place of its own
 * becomes a custom field (`fields`).
 *
 * Security invariant: a TransferItem holds secrets in the clear. It exists only in the
 * browser's memory (or the offline decrypt command's) and is sealed before anything leaves.
 */
export interface TransferItem {
  type: EntryType;
  /** The item's name (Lockit's service name). Never empty after an importer ran. */
  name: string;
  username: string;
  password: string;
  /** Every web address, in the file's order. */
  urls: string[];
  /** How the browser extension matches an address, for those with a rule of their own. */
  urlRules?: Record<string, UrlMatchRule>;
  /** Multi-line notes, newlines kept as '\n'. */
  notes: string;
  /** A base32 secret or an otpauth:// URI as the file gave it; '' for none. */
  totp: string;
  fields: TransferField[];
  card: TransferCard | null;
  identity: TransferIdentity | null;
  /** An SSH key's OpenSSH private key, public key line and fingerprint, as the file gave them. */
  sshKey?: TransferSshKey | null;
  tags: string[];
  /** The folder's path, nested with '/' ("Work/Banking"); null for none. */
  folder: string | null;
  favorite: boolean;
  /** ISO dates when the file has them (kept for history and the health report's age). */
  createdAt: string | null;
  updatedAt: string | null;
  /** Earlier passwords the file keeps (newest first), e.g. Bitwarden's passwordHistory. */
  passwordHistory: { password: string; changedAt: string | null }[];
  /**
   * Set only by a Lockit backup made with "include Trash": when the item was in Trash. The
   * import shows such items as Trash and may restore them there; absent for everything else.
   */
  trashedAt?: string;
  /**
   * Files the item carries in the file (KeePass binaries, 1Password documents): the import
   * creates the item, then seals and uploads each. Absent for formats that hold no files.
   */
  attachments?: TransferAttachment[];
}

/** An attached file as the import file holds it, in the clear (see TransferItem's invariant). */
export interface TransferAttachment {
  /** The file's name as the other manager shows it ("scan.pdf"). */
  name: string;
  bytes: Uint8Array;
}

export interface TransferField {
  label: string;
  kind: CustomFieldKind;
  /** A boolean's value is 'true' or 'false'. */
  value: string;
}

export interface TransferCard {
  holder: string;
  brand: string;
  number: string;
  code: string;
  expMonth: string;
  expYear: string;
}

export interface TransferSshKey {
  privateKey: string;
  publicKey: string;
  fingerprint: string;
}

export type TransferIdentity = IdentityOverview & { ssn: string; passport: string; license: string };

/** An item with nothing in it but its type and name: what importers start from. */
export function emptyTransferItem(type: EntryType, name: string): TransferItem {
  return {
    type,
    name,
    username: '',
    password: '',
    urls: [],
    notes: '',
    totp: '',
    fields: [],
    card: null,
    identity: null,
    tags: [],
    folder: null,
    favorite: false,
    createdAt: null,
    updatedAt: null,
    passwordHistory: [],
  };
}

/** An identity with every field empty: what importers fill in. */
export function emptyTransferIdentity(): TransferIdentity {
  const overview = Object.fromEntries(IDENTITY_FIELDS.map((field) => [field, ''])) as IdentityOverview;
  return { ...overview, ssn: '', passport: '', license: '' };
}
