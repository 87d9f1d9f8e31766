import type { EntryType } from '@lockit/contract';
import type { CardDraft, EntryDraft, IdentityDraft } from './vault-entry';

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

/**
 * A new entry of `type`, nothing typed yet. It lists its files from the start (none yet), so a
 * file the server serves for it that it never listed is caught (decision 0084).
 */
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
    files: [],
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
