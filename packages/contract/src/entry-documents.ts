import { attachmentMetadataProblem } from '@lockit/crypto';
import { z } from 'zod';
import { ENTRY_PLAINTEXT_LIMITS } from './entries';

/**
 * The encrypted JSON documents of an entry (decision 0028, "entries as documents"). The wire
 * keeps the spec's five fields; everything else an entry has lives in two documents, each
 * encrypted as one field of the entry (`overview`, `details`):
 *
 * - overview: what the list shows, filters and searches, opened at unlock;
 * - details: the other secrets (TOTP seed, hidden custom fields, card number and code,
 *   identity numbers), opened only on reveal, copy or edit.
 *
 * Both are parsed after decryption against these allow-lists with caps: a document with an
 * unknown key, a wrong type or a value past its cap is refused (the entry shows as damaged),
 * never half-read. `v` lets a later Lockit add a version without guessing.
 */

export const ENTRY_TYPES = ['login', 'note', 'card', 'identity', 'sshKey'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export const DOCUMENT_LIMITS = {
  urls: 20,
  url: 2000,
  tags: 30,
  tag: 60,
  customFields: 50,
  label: 100,
  value: 2000,
  totp: 1000,
  short: 200,
  /** An OpenSSH private key: an Ed25519 key is about 400 characters, a 4096-bit RSA key about 3,400. */
  sshPrivateKey: 16000,
  sshPublicKey: 2000,
  /** Files an item lists; far above what a person attaches to one item, and within the overview's size. */
  files: 100,
  /** Files deleted for good that the item remembers; the oldest are forgotten past this. */
  deletedFiles: 100,
} as const;

const text = (max: number) => z.string().max(max, `is longer than ${max} characters`);
const short = text(DOCUMENT_LIMITS.short);

/**
 * How the browser extension compares one of a login's web addresses with a page: the
 * registrable domain (its default), the host, the start of the address (same origin, path
 * prefix), the exact address, a regular expression, or never. An address without a rule of
 * its own follows the extension's default setting.
 */
export const URL_MATCH_RULES = ['base-domain', 'host', 'starts-with', 'exact', 'regex', 'never'] as const;
export type UrlMatchRule = (typeof URL_MATCH_RULES)[number];

export const customFieldKinds = ['text', 'hidden', 'boolean'] as const;
export type CustomFieldKind = (typeof customFieldKinds)[number];

/**
 * A custom field as the list knows it. A hidden field's value is in the details document,
 * under the same id; a text or boolean field's value is here ("true"/"false" for a boolean).
 */
export const customFieldSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,36}$/, 'must be a short id'),
  label: text(DOCUMENT_LIMITS.label),
  kind: z.enum(customFieldKinds),
  value: text(DOCUMENT_LIMITS.value).optional(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

export const cardOverviewSchema = z.strictObject({
  holder: short,
  brand: short,
  /** The last four digits, for the list; the whole number is in details. */
  last4: z.string().regex(/^\d{0,4}$/, 'must be up to four digits'),
  expMonth: z.string().regex(/^(|0?[1-9]|1[0-2])$/, 'must be a month (1-12)'),
  expYear: z.string().regex(/^(|\d{2}|\d{4})$/, 'must be a year'),
});
export type CardOverview = z.infer<typeof cardOverviewSchema>;

export const IDENTITY_FIELDS = [
  'title',
  'firstName',
  'middleName',
  'lastName',
  'email',
  'phone',
  'company',
  'address1',
  'address2',
  'city',
  'state',
  'postalCode',
  'country',
] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];
export const identityOverviewSchema = z.strictObject(
  Object.fromEntries(IDENTITY_FIELDS.map((name) => [name, short])) as Record<IdentityField, typeof short>,
);
export type IdentityOverview = z.infer<typeof identityOverviewSchema>;

/**
 * What the list knows of an SSH key: its public half (an authorized_keys line), its SHA256
 * fingerprint as OpenSSH prints it, and its comment. The private key is in details only.
 */
export const sshKeyOverviewSchema = z.strictObject({
  publicKey: z
    .string()
    .max(DOCUMENT_LIMITS.sshPublicKey)
    .regex(/^(ssh-ed25519|ssh-rsa) [A-Za-z0-9+/]+=*( .*)?$/, 'must be an OpenSSH public key line'),
  fingerprint: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'must be a SHA256 fingerprint'),
  comment: short,
});
export type SshKeyOverview = z.infer<typeof sshKeyOverviewSchema>;

/**
 * A file the item holds, as the item itself lists it (decision 0084): the file's id on the
 * server, and the name and size the person sees. The list is sealed with the item, so it is
 * in the whole-vault integrity set and in every history version: a server that withholds a
 * listed file, or serves one the item does not list, is caught by comparing the two.
 */
export const fileRefSchema = z.strictObject({
  id: z.uuid(),
  // The same rule the file's own sealed metadata follows.
  name: z
    .string()
    .refine((name) => attachmentMetadataProblem({ name, size: 0, type: '' }) === null, 'is not a name a file can have'),
  size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type FileRef = z.infer<typeof fileRefSchema>;

/**
 * What the list shows of an entry. Version 2 adds `name` and `username`, copies of the
 * entry's service name and user name, so the list opens one field per entry instead of four;
 * a version 2 overview is only trusted sealed bound to those fields (crypto's bound overview,
 * a v3 text), which the reader checks. Version 1 (without them) is what Lockit wrote before.
 */
export const overviewDocumentSchema = z
  .strictObject({
    v: z.union([z.literal(1), z.literal(2)]),
    name: text(ENTRY_PLAINTEXT_LIMITS.serviceName).optional(),
    username: text(ENTRY_PLAINTEXT_LIMITS.username).optional(),
    type: z.enum(ENTRY_TYPES),
    /** Every web address of a login, the first one also in the spec's `url` field. */
    urls: z.array(text(DOCUMENT_LIMITS.url)).max(DOCUMENT_LIMITS.urls),
    tags: z.array(text(DOCUMENT_LIMITS.tag).min(1)).max(DOCUMENT_LIMITS.tags),
    folderId: z.uuid().nullable(),
    favorite: z.boolean(),
    fields: z.array(customFieldSchema).max(DOCUMENT_LIMITS.customFields),
    /** Whether details holds a TOTP seed (the list offers "copy code" without opening details). */
    hasTotp: z.boolean(),
    card: cardOverviewSchema.nullable(),
    identity: identityOverviewSchema.nullable(),
    /** An SSH key's public half; absent in documents written before SSH keys. */
    sshKey: sshKeyOverviewSchema.nullable().optional(),
    /** A match rule for each address that has one of its own, by the address as saved; absent when none has. */
    urlRules: z.record(text(DOCUMENT_LIMITS.url), z.enum(URL_MATCH_RULES)).optional(),
    /**
     * The item's files. Absent in an item whose files were never listed (written before
     * decision 0084, or by an import): its files are then shown as the server serves them.
     */
    files: z
      .array(fileRefSchema)
      .max(DOCUMENT_LIMITS.files)
      .refine((files) => new Set(files.map((file) => file.id)).size === files.length, 'lists a file twice')
      .optional(),
    /**
     * Ids of files deleted for good: a version in history may still list one, so without this
     * a server serving it again would pass for a file kept for that version.
     */
    deletedFiles: z.array(z.uuid()).max(DOCUMENT_LIMITS.deletedFiles).optional(),
  })
  .refine((overview) => Object.keys(overview.urlRules ?? {}).every((address) => overview.urls.includes(address)), {
    message: 'has a match rule for an address it does not hold',
    path: ['urlRules'],
  })
  .refine(
    (overview) =>
      overview.v === 2
        ? overview.name !== undefined && overview.username !== undefined
        : overview.name === undefined && overview.username === undefined,
    {
      message: 'has a name and a user name in version 2, neither in version 1',
      path: ['v'],
    },
  );
export type OverviewDocument = z.infer<typeof overviewDocumentSchema>;

/** An overview of `type` with nothing in it but the type: what a new entry starts from. */
export function emptyOverview(type: EntryType = 'login'): OverviewDocument {
  return {
    v: 1,
    type,
    urls: [],
    tags: [],
    folderId: null,
    favorite: false,
    fields: [],
    hasTotp: false,
    card: null,
    identity: null,
  };
}

export const detailsDocumentSchema = z.strictObject({
  v: z.literal(1),
  /** A base32 secret or a whole otpauth:// URI, as the person gave it. */
  totp: text(DOCUMENT_LIMITS.totp).nullable(),
  /** Values of hidden custom fields, by field id. */
  hidden: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,36}$/), text(DOCUMENT_LIMITS.value)),
  card: z.strictObject({ number: text(40), code: text(10) }).nullable(),
  identity: z.strictObject({ ssn: short, passport: short, license: short }).nullable(),
  /** An SSH key's private key in OpenSSH format (unencrypted: the vault is its encryption). */
  sshKey: z
    .strictObject({
      privateKey: text(DOCUMENT_LIMITS.sshPrivateKey).regex(
        /^-----BEGIN OPENSSH PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END OPENSSH PRIVATE KEY-----\n?$/,
        'must be an OpenSSH private key',
      ),
    })
    .nullable()
    .optional(),
});
export type DetailsDocument = z.infer<typeof detailsDocumentSchema>;

/** Parses a decrypted document; a JSON or schema error is one readable sentence, never a partial value. */
export function parseEntryDocument<T>(schema: z.ZodType<T>, json: string, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new EntryDocumentError(`The ${what} of this entry is not valid JSON.`);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new EntryDocumentError(
      `The ${what} of this entry is not in Lockit's format (${issue?.path.join('.') || 'document'} ${issue?.message ?? 'is invalid'}).`,
    );
  }
  return result.data;
}

export class EntryDocumentError extends Error {
  override readonly name = 'EntryDocumentError';
}
