import { customFieldKinds, ENTRY_TYPES, IDENTITY_FIELDS, URL_MATCH_RULES, type IdentityField } from '@lockit/contract';
import { attachmentMetadataProblem } from '@lockit/crypto';
import { z } from 'zod';
import type { TransferItem } from '../transfer-item';

/**
 * The plaintext of a Lockit backup (docs/backup-format.md, "Plaintext"): every item of the
 * vault with its history, and every folder, in the clear. It is parsed against this
 * allow-list after decryption, so a file made by hand or by another tool is read whole or
 * refused with the path of the first wrong value, never half-read.
 *
 * Caps are generous (a backup is the person's own data) but finite, so a crafted file cannot
 * make the import allocate without bound.
 */

export const BACKUP_CONTENTS_VERSION = 1;
/** The contents of a version 2 file: items may list their attached files (docs/backup-format.md). */
export const BACKUP_CONTENTS_WITH_FILES_VERSION = 2;

export const BACKUP_LIMITS = {
  items: 100_000,
  versionsPerItem: 1_000,
  folders: 10_000,
  text: 100_000,
  short: 10_000,
  list: 1_000,
  filesPerItem: 1_000,
  files: 100_000,
} as const;

const text = z.string().max(BACKUP_LIMITS.text);
const short = z.string().max(BACKUP_LIMITS.short);
/** An ISO 8601 date-time as Lockit writes it (`2025-01-31T12:00:00.000Z`). */
const date = z.iso.datetime({ offset: true });

const identityText = Object.fromEntries(
  [...IDENTITY_FIELDS, 'ssn', 'passport', 'license'].map((name) => [name, short]),
) as Record<IdentityField | 'ssn' | 'passport' | 'license', typeof short>;

/** What an item holds at one moment: the current item and each of its earlier versions. */
const itemShape = {
  type: z.enum(ENTRY_TYPES),
  name: short,
  username: short,
  password: text,
  urls: z.array(text).max(BACKUP_LIMITS.list),
  /** Match rules of the addresses that have their own; absent in backups made before them. */
  urlRules: z.record(text, z.enum(URL_MATCH_RULES)).optional(),
  notes: text,
  /** A base32 secret or an otpauth:// URI as the person gave it; '' for none. */
  totp: text,
  fields: z.array(z.strictObject({ label: short, kind: z.enum(customFieldKinds), value: text })).max(BACKUP_LIMITS.list),
  card: z.strictObject({ holder: short, brand: short, number: short, code: short, expMonth: short, expYear: short }).nullable(),
  identity: z.strictObject(identityText).nullable(),
  /** An SSH key item's key; absent in backups made before SSH keys. */
  sshKey: z.strictObject({ privateKey: text, publicKey: text, fingerprint: short }).nullable().optional(),
  tags: z.array(short).max(BACKUP_LIMITS.list),
  /** The folder's path, nested with '/' ("Work/Banking"); null for none. */
  folder: short.nullable(),
  favorite: z.boolean(),
};

export const backupVersionSchema = z.strictObject({
  ...itemShape,
  /** When this version was saved, and when the next one replaced it. */
  savedAt: date,
  replacedAt: date,
});
export type BackupVersion = z.infer<typeof backupVersionSchema>;

/** An attached file as the contents list it; its bytes follow the contents in a version 2 file. */
export const backupFileSchema = z
  .strictObject({
    name: z.string(),
    /** Bytes of the file: its content must hold exactly this many. */
    size: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
    /** Its media type as the browser gave it at upload ('' when none). */
    type: z.string(),
    /** When it was attached. */
    createdAt: date,
  })
  .superRefine((file, context) => {
    const problem = attachmentMetadataProblem(file);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });
export type BackupFile = z.infer<typeof backupFileSchema>;

export const backupItemSchema = z.strictObject({
  ...itemShape,
  createdAt: date.nullable(),
  updatedAt: date.nullable(),
  /** When the item went to Trash; null for a live item. Only in a backup made with "include Trash". */
  trashedAt: date.nullable(),
  /** Earlier versions, newest first, each opened whole. */
  history: z.array(backupVersionSchema).max(BACKUP_LIMITS.versionsPerItem),
  /** Its attached files, in the order their bytes follow (version 2 only; absent for none). */
  files: z.array(backupFileSchema).max(BACKUP_LIMITS.filesPerItem).optional(),
});
export type BackupItem = z.infer<typeof backupItemSchema>;

export const backupContentsSchema = z
  .strictObject({
    app: z.literal('lockit'),
    /** 1: no files (a version 1 file); 2: items may list files (a version 2 file). */
    version: z.union([z.literal(BACKUP_CONTENTS_VERSION), z.literal(BACKUP_CONTENTS_WITH_FILES_VERSION)]),
    exportedAt: date,
    includesTrash: z.boolean(),
    /** Every folder path, also those that hold no item, so the tree comes back whole. */
    folders: z.array(short).max(BACKUP_LIMITS.folders),
    items: z.array(backupItemSchema).max(BACKUP_LIMITS.items),
  })
  .superRefine((contents, context) => {
    const files = contents.items.reduce((sum, item) => sum + (item.files?.length ?? 0), 0);
    if (contents.version === BACKUP_CONTENTS_VERSION && files > 0) {
      context.addIssue({ code: 'custom', path: ['version'], message: 'version 1 contents cannot list files' });
    }
    if (files > BACKUP_LIMITS.files) {
      context.addIssue({ code: 'custom', path: ['items'], message: `more than ${BACKUP_LIMITS.files} files` });
    }
  });
export type BackupContents = z.infer<typeof backupContentsSchema>;

/**
 * Earlier passwords of an item, newest first, from its history: each time the password
 * changed, the one it replaced, dated when it was replaced. Blank passwords and versions that
 * kept the same password add nothing.
 */
export function passwordHistoryOf(item: Pick<BackupItem, 'password' | 'history'>): TransferItem['passwordHistory'] {
  const result: TransferItem['passwordHistory'] = [];
  let newer = item.password;
  for (const version of item.history) {
    if (version.password !== newer && version.password !== '') {
      result.push({ password: version.password, changedAt: version.replacedAt });
    }
    newer = version.password;
  }
  return result;
}

/** The item as an import yields it: its history as password history, Trash kept as `trashedAt`. */
export function transferItemOf(item: BackupItem): TransferItem {
  const { history: _history, trashedAt, files: _files, ...fields } = item;
  const transfer: TransferItem = {
    ...fields,
    urls: [...item.urls],
    fields: item.fields.map((field) => ({ ...field })),
    card: item.card && { ...item.card },
    identity: item.identity && { ...item.identity },
    ...(item.sshKey !== undefined && { sshKey: item.sshKey && { ...item.sshKey } }),
    tags: [...item.tags],
    passwordHistory: passwordHistoryOf(item),
  };
  if (trashedAt !== null) transfer.trashedAt = trashedAt;
  return transfer;
}
