import {
  detailsDocumentSchema,
  overviewDocumentSchema,
  parseEntryDocument,
  type DetailsDocument,
  type EntryVersionWire,
} from '@lockit/contract';
import { decryptField, openEntryFields } from '@lockit/crypto';
import { EntryDraftError } from './entry-draft-error';
import { legacyOverview } from './open-entries';
import type { EntryDraft, EntrySecrets, OpenEntry } from './vault-entry';

/** The password of one entry, for reveal or copy. Throws FieldDecryptionError when damaged. */
export function openPassword(vaultKey: CryptoKey, entry: OpenEntry): Promise<string> {
  return decryptField(vaultKey, entry.id, 'password', entry.sealed.password, entry.sealed.fieldSet);
}

/**
 * Every secret of one entry (password, notes, details), decrypted now. Throws when any of
 * them does not open or the details document is not in the contract's format (the entry is
 * then damaged; nothing of it is returned).
 */
export async function openSecrets(vaultKey: CryptoKey, entry: OpenEntry): Promise<EntrySecrets> {
  const { password, notes, details, fieldSet } = entry.sealed;
  if (fieldSet === undefined && details !== null) throw new EntryDraftError('A legacy entry has no details.');
  const [openedPassword, openedNotes, openedDetails] = await Promise.all([
    decryptField(vaultKey, entry.id, 'password', password, fieldSet),
    notes === null ? '' : decryptField(vaultKey, entry.id, 'notes', notes, fieldSet),
    details === null ? null : decryptField(vaultKey, entry.id, 'details', details, fieldSet),
  ]);
  const document = openedDetails === null ? null : parseEntryDocument(detailsDocumentSchema, openedDetails, 'details');
  return secretsOf(openedPassword, openedNotes, document);
}

function secretsOf(password: string, notes: string, details: DetailsDocument | null): EntrySecrets {
  return {
    password,
    notes,
    totp: details?.totp ?? null,
    hidden: details?.hidden ?? {},
    card: details?.card ?? null,
    identity: details?.identity ?? null,
    sshKey: details?.sshKey ?? null,
  };
}

/** What the list knows of an entry, as a draft is built from it. */
type EntryShape = Pick<
  OpenEntry,
  | 'type'
  | 'serviceName'
  | 'username'
  | 'urls'
  | 'urlRules'
  | 'fields'
  | 'card'
  | 'identity'
  | 'sshKey'
  | 'files'
  | 'deletedFiles'
  | 'tags'
  | 'folderId'
  | 'favorite'
>;

/** The editor's content for an entry whose secrets are open. */
export function draftOf(entry: EntryShape, secrets: EntrySecrets): EntryDraft {
  return {
    type: entry.type,
    serviceName: entry.serviceName,
    username: entry.username,
    password: secrets.password,
    urls: [...entry.urls],
    ...(entry.urlRules && { urlRules: { ...entry.urlRules } }),
    notes: secrets.notes,
    totp: secrets.totp ?? '',
    fields: entry.fields.map((field) => ({
      id: field.id,
      label: field.label,
      kind: field.kind,
      value: field.kind === 'hidden' ? (secrets.hidden[field.id] ?? '') : (field.value ?? ''),
    })),
    card: entry.card && {
      holder: entry.card.holder,
      brand: entry.card.brand,
      number: secrets.card?.number ?? '',
      code: secrets.card?.code ?? '',
      expMonth: entry.card.expMonth,
      expYear: entry.card.expYear,
    },
    identity: entry.identity && {
      ...entry.identity,
      ssn: secrets.identity?.ssn ?? '',
      passport: secrets.identity?.passport ?? '',
      license: secrets.identity?.license ?? '',
    },
    sshKey: entry.sshKey ? { privateKey: secrets.sshKey?.privateKey ?? '', comment: entry.sshKey.comment } : null,
    ...(entry.files && { files: entry.files.map((file) => ({ ...file })) }),
    ...(entry.deletedFiles && { deletedFiles: [...entry.deletedFiles] }),
    tags: [...entry.tags],
    folderId: entry.folderId,
    favorite: entry.favorite,
  };
}

/** What the Edit form starts from: the one entry's secrets, decrypted now. Throws when damaged. */
export async function openDraft(vaultKey: CryptoKey, entry: OpenEntry): Promise<EntryDraft> {
  return draftOf(entry, await openSecrets(vaultKey, entry));
}

/**
 * One earlier version of entry `entryId` (from its history), opened whole: its own field set
 * (or the legacy format), its documents parsed against the allow-lists. Throws when any part
 * does not open; never returns part of a version.
 */
export async function openVersionDraft(vaultKey: CryptoKey, entryId: string, version: EntryVersionWire): Promise<EntryDraft> {
  if (version.overview === null && version.details !== null) throw new EntryDraftError('A legacy version has no details.');
  const opened = await openEntryFields(vaultKey, entryId, version, [
    'serviceName',
    'username',
    'password',
    'url',
    'notes',
    'overview',
    'details',
  ]);
  const overview =
    opened.overview === null
      ? legacyOverview(opened.url)
      : parseEntryDocument(overviewDocumentSchema, opened.overview, 'overview');
  const details = opened.details === null ? null : parseEntryDocument(detailsDocumentSchema, opened.details, 'details');
  const shape: EntryShape = { ...overview, serviceName: opened.serviceName ?? '', username: opened.username ?? '' };
  return draftOf(shape, secretsOf(opened.password ?? '', opened.notes ?? '', details));
}
