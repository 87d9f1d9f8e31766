import {
  DOCUMENT_LIMITS,
  ENTRY_PLAINTEXT_LIMITS,
  detailsDocumentSchema,
  overviewDocumentSchema,
  parseEntryDocument,
  type CustomField,
  type DetailsDocument,
  type IdentityField,
  type OverviewDocument,
  type UrlMatchRule,
} from '@lockit/contract';
import { EntryDraftError } from './entry-draft-error';
import { normaliseTags } from './entry-drafts';
import { sshKeyPlaintext } from './ssh-key-entry';
import type { DraftField, EntryDraft, IdentityDraft } from './vault-entry';

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
  const urlRules = rulesOf(draft, urls);
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
      ...(urlRules && { urlRules }),
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
      ...(draft.files && { files: draft.files }),
      ...(draft.deletedFiles && { deletedFiles: draft.deletedFiles.slice(-DOCUMENT_LIMITS.deletedFiles) }),
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
    throw new EntryDraftError('This entry holds too much to save: remove some custom fields, tags, web addresses or files.');
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
    if ((document.files?.length ?? 0) > DOCUMENT_LIMITS.files) return `An item can have at most ${DOCUMENT_LIMITS.files} files.`;
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
 * The rules of the saved addresses that have one, by the address as saved (trimmed); undefined
 * when none has, so an entry without rules is stored exactly as before rules existed.
 */
function rulesOf(draft: EntryDraft, urls: readonly string[]): Record<string, UrlMatchRule> | undefined {
  const rules: Record<string, UrlMatchRule> = {};
  for (const [address, rule] of Object.entries(draft.urlRules ?? {})) {
    const saved = address.trim();
    if (urls.includes(saved)) rules[saved] = rule;
  }
  return Object.keys(rules).length > 0 ? rules : undefined;
}
