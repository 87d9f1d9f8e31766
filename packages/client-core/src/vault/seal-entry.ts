import {
  DOCUMENT_LIMITS,
  ENTRY_PLAINTEXT_LIMITS,
  detailsDocumentSchema,
  overviewDocumentSchema,
  parseEntryDocument,
  type AddEntryRequest,
  type CustomField,
  type DetailsDocument,
  type EntryType,
  type EntryVersionWire,
  type IdentityField,
  type OverviewDocument,
  type UpdateEntryRequest,
} from '@lockit/contract';
import { decryptField, openEntryFields, sealEntryFields } from '@lockit/crypto';
import { legacyOverview } from './open-entries';
import { EntryDraftError } from './entry-draft-error';
import { sshKeyPlaintext } from './ssh-key-entry';
import type { CardDraft, DraftField, EntryDraft, EntrySecrets, IdentityDraft, OpenEntry } from './vault-entry';

export type { EntryDraft } from './vault-entry';

/** The wire fields of one sealed entry: ciphertexts only; null for a field it does not have. */
export interface SealedEntry {
  id: string;
  serviceName: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  overview: string;
  details: string | null;
}

export { EntryDraftError } from './entry-draft-error';

const EMPTY_IDENTITY_DRAFT: IdentityDraft = {
  title: '',
  firstName: '',
  middleName: '',
  lastName: '',
  email: '',
  phone: '',
  company: '',
  address1: '',
  address2: '',
  city: '',
  state: '',
  postalCode: '',
  country: '',
  ssn: '',
  passport: '',
  license: '',
};
const EMPTY_CARD_DRAFT: CardDraft = { holder: '', brand: '', number: '', code: '', expMonth: '', expYear: '' };

/** A new entry of `type`, nothing typed yet. */
export function emptyDraft(type: EntryType = 'login'): EntryDraft {
  return {
    type,
    serviceName: '',
    username: '',
    password: '',
    urls: [],
    notes: '',
    totp: '',
    fields: [],
    card: type === 'card' ? { ...EMPTY_CARD_DRAFT } : null,
    identity: type === 'identity' ? { ...EMPTY_IDENTITY_DRAFT } : null,
    sshKey: type === 'sshKey' ? { privateKey: '', comment: '' } : null,
    tags: [],
    folderId: null,
    favorite: false,
  };
}

/** The same draft as another type: what the new type shows starts empty, the rest is kept. */
export function withType(draft: EntryDraft, type: EntryType): EntryDraft {
  return {
    ...draft,
    type,
    card: type === 'card' ? (draft.card ?? { ...EMPTY_CARD_DRAFT }) : draft.card,
    identity: type === 'identity' ? (draft.identity ?? { ...EMPTY_IDENTITY_DRAFT }) : draft.identity,
    sshKey: type === 'sshKey' ? (draft.sshKey ?? { privateKey: '', comment: '' }) : (draft.sshKey ?? null),
  };
}

/** The plaintext of every wire field and both documents, as `draft` is saved. */
export interface EntryPlaintext {
  serviceName: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  overview: OverviewDocument;
  /** Null when it would hold nothing: then the entry has no details field. */
  details: DetailsDocument | null;
}

/**
 * What `draft` saves: only what its type shows (a card keeps no web address typed while it
 * was a login, a login no card number), web addresses and tags trimmed and without blanks,
 * custom fields without a label or value dropped. Hidden values, the TOTP seed, the card
 * number and code and identity numbers go to details only; the overview names the fields
 * and holds the card's last four digits.
 */
export function entryPlaintext(draft: EntryDraft): EntryPlaintext {
  const login = draft.type === 'login';
  const urls = login ? draft.urls.map((url) => url.trim()).filter((url) => url !== '') : [];
  const totp = login ? draft.totp.trim() : '';
  const fields = draft.fields.filter((field) => field.label.trim() !== '' || field.value !== '');
  const card = draft.type === 'card' ? draft.card : null;
  const identity = draft.type === 'identity' ? draft.identity : null;
  const sshKey = draft.type === 'sshKey' ? sshKeyPlaintext(draft.sshKey) : null;

  const hidden: Record<string, string> = {};
  for (const field of fields) if (field.kind === 'hidden') hidden[field.id] = field.value;
  const cardSecret =
    card && (card.number !== '' || card.code !== '') ? { number: card.number.trim(), code: card.code.trim() } : null;
  const identitySecret =
    identity && (identity.ssn !== '' || identity.passport !== '' || identity.license !== '')
      ? { ssn: identity.ssn, passport: identity.passport, license: identity.license }
      : null;
  const hasDetails =
    totp !== '' ||
    fields.some((field) => field.kind === 'hidden') ||
    cardSecret !== null ||
    identitySecret !== null ||
    sshKey !== null;

  return {
    serviceName: draft.serviceName,
    username: login ? draft.username : '',
    password: login ? draft.password : '',
    url: urls[0] ?? null,
    notes: draft.notes === '' ? null : draft.notes,
    overview: {
      v: 2,
      name: draft.serviceName,
      username: login ? draft.username : '',
      type: draft.type,
      urls,
      tags: normaliseTags(draft.tags),
      folderId: draft.folderId,
      favorite: draft.favorite,
      fields: fields.map(overviewField),
      hasTotp: totp !== '',
      card: card && {
        holder: card.holder.trim(),
        brand: card.brand.trim(),
        last4: card.number.replace(/\D/g, '').slice(-4),
        expMonth: card.expMonth.trim(),
        expYear: card.expYear.trim(),
      },
      identity: identity && identityOverview(identity),
      ...(sshKey && { sshKey: sshKey.overview }),
    },
    details: hasDetails
      ? {
          v: 1,
          totp: totp === '' ? null : totp,
          hidden,
          card: cardSecret,
          identity: identitySecret,
          ...(sshKey && { sshKey: sshKey.secret }),
        }
      : null,
  };
}

/** Trimmed, without blanks or repeats (ignoring case), in the order given. */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    result.push(tag);
  }
  return result;
}

function overviewField(field: DraftField): CustomField {
  const base = { id: field.id, label: field.label.trim(), kind: field.kind };
  if (field.kind === 'hidden') return base;
  return { ...base, value: field.kind === 'boolean' ? String(field.value === 'true') : field.value };
}

function identityOverview(identity: IdentityDraft): OverviewDocument['identity'] {
  const { ssn: _ssn, passport: _passport, license: _license, ...overview } = identity;
  return Object.fromEntries(Object.entries(overview).map(([key, value]) => [key, value.trim()])) as Record<IdentityField, string>;
}

/**
 * Checks a draft against the contract's caps before anything is encrypted, so a save that
 * the server (or the next unlock) would refuse is refused here with a readable sentence.
 */
export function checkEntryPlaintext(plain: EntryPlaintext): { overview: string; details: string | null } {
  if (plain.serviceName.trim() === '') throw new EntryDraftError('Enter a name for this entry.');
  for (const name of ['serviceName', 'username', 'password', 'url', 'notes'] as const) {
    const value = plain[name];
    if (value !== null && value.length > ENTRY_PLAINTEXT_LIMITS[name]) {
      throw new EntryDraftError(`The ${FIELD_WORDS[name]} is longer than ${ENTRY_PLAINTEXT_LIMITS[name]} characters.`);
    }
  }
  const overview = checkedDocument(overviewDocumentSchema, plain.overview, 'overview');
  const details = plain.details === null ? null : checkedDocument(detailsDocumentSchema, plain.details, 'details');
  return { overview, details };
}

const FIELD_WORDS = {
  serviceName: 'name',
  username: 'user name',
  password: 'password',
  url: 'first web address',
  notes: 'notes',
};

/** The document as JSON, after the same parse the reader does (so what is written reads back). */
function checkedDocument(
  schema: Parameters<typeof parseEntryDocument>[0],
  document: OverviewDocument | DetailsDocument,
  what: 'overview' | 'details',
): string {
  const json = JSON.stringify(document);
  try {
    parseEntryDocument(schema, json, what);
  } catch {
    throw new EntryDraftError(limitMessage(document));
  }
  if (json.length > ENTRY_PLAINTEXT_LIMITS[what]) {
    throw new EntryDraftError('This entry holds too much to save: remove some custom fields, tags or web addresses.');
  }
  return json;
}

/** A sentence for the usual ways a draft passes a cap; the editor's own checks catch the rest first. */
function limitMessage(document: OverviewDocument | DetailsDocument): string {
  if ('urls' in document) {
    if (document.urls.length > DOCUMENT_LIMITS.urls) return `An entry can have at most ${DOCUMENT_LIMITS.urls} web addresses.`;
    if (document.urls.some((url) => url.length > DOCUMENT_LIMITS.url))
      return `A web address can be at most ${DOCUMENT_LIMITS.url} characters.`;
    if (document.tags.length > DOCUMENT_LIMITS.tags) return `An entry can have at most ${DOCUMENT_LIMITS.tags} tags.`;
    if (document.tags.some((tag) => tag.length > DOCUMENT_LIMITS.tag))
      return `A tag can be at most ${DOCUMENT_LIMITS.tag} characters.`;
    if (document.fields.length > DOCUMENT_LIMITS.customFields)
      return `An entry can have at most ${DOCUMENT_LIMITS.customFields} custom fields.`;
    if (document.fields.some((field) => field.label.length > DOCUMENT_LIMITS.label))
      return `A field label can be at most ${DOCUMENT_LIMITS.label} characters.`;
    if (document.card && !/^(|0?[1-9]|1[0-2])$/.test(document.card.expMonth))
      return 'The expiry month must be a number from 1 to 12.';
    if (document.card && !/^(|\d{2}|\d{4})$/.test(document.card.expYear)) return 'The expiry year must have 2 or 4 digits.';
  } else {
    if (document.totp !== null && document.totp.length > DOCUMENT_LIMITS.totp) return 'The one-time code secret is too long.';
    if (document.card && document.card.number.length > 40) return 'The card number is too long.';
    if (document.card && document.card.code.length > 10) return 'The security code is too long.';
  }
  return 'A value of this entry is too long to save.';
}

/**
 * Encrypts one entry in the item format under the vault key: every field bound to `id`, the
 * field and the whole field set (fresh IV each). Throws EntryDraftError, before any
 * encryption, for a draft past the contract's caps.
 * Security invariant: the result holds ciphertexts only; no plaintext field leaves here.
 */
export async function sealEntry(vaultKey: CryptoKey, id: string, draft: EntryDraft): Promise<SealedEntry> {
  const plain = entryPlaintext(draft);
  const { overview, details } = checkEntryPlaintext(plain);
  const sealed = await sealEntryFields(vaultKey, id, { ...plain, overview, details });
  return {
    id,
    serviceName: sealed.serviceName ?? '',
    username: sealed.username ?? '',
    password: sealed.password ?? '',
    url: sealed.url,
    notes: sealed.notes,
    overview: sealed.overview ?? '',
    details: sealed.details,
  };
}

/** The body of an add: absent optional fields are left out. */
export function toAddRequest(sealed: SealedEntry): AddEntryRequest {
  const request: AddEntryRequest = {
    id: sealed.id,
    serviceName: sealed.serviceName,
    username: sealed.username,
    password: sealed.password,
    overview: sealed.overview,
  };
  if (sealed.url !== null) request.url = sealed.url;
  if (sealed.notes !== null) request.notes = sealed.notes;
  if (sealed.details !== null) request.details = sealed.details;
  return request;
}

/**
 * The body of an update based on `revision`: every field named, absent ones as null, so the
 * server clears them and the stored field set is exactly the one the fields were sealed with.
 */
export function toUpdateRequest(sealed: SealedEntry, revision: number): UpdateEntryRequest {
  return { ...sealed, revision };
}

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
  'type' | 'serviceName' | 'username' | 'urls' | 'fields' | 'card' | 'identity' | 'sshKey' | 'tags' | 'folderId' | 'favorite'
>;

/** The editor's content for an entry whose secrets are open. */
export function draftOf(entry: EntryShape, secrets: EntrySecrets): EntryDraft {
  return {
    type: entry.type,
    serviceName: entry.serviceName,
    username: entry.username,
    password: secrets.password,
    urls: [...entry.urls],
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
