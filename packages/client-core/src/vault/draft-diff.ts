import { IDENTITY_FIELDS, type UrlMatchRule } from '@lockit/contract';
import { URL_MATCH_RULE_WORDS } from './url-match-words';
import type { EntryDraft } from './vault-entry';

/** The parts of an entry a person compares and picks from, in the order the editor shows them. */
export const DRAFT_PARTS = [
  'type',
  'serviceName',
  'username',
  'password',
  'urls',
  'totp',
  'card',
  'identity',
  'sshKey',
  'notes',
  'fields',
  'folderId',
  'tags',
  'favorite',
] as const satisfies readonly (keyof EntryDraft)[];
export type DraftPart = (typeof DRAFT_PARTS)[number];

export const PART_LABELS: Record<DraftPart, string> = {
  type: 'Type',
  serviceName: 'Name',
  username: 'Username',
  password: 'Password',
  urls: 'URLs',
  totp: 'One-time code secret',
  card: 'Card',
  identity: 'Identity',
  sshKey: 'SSH key',
  notes: 'Notes',
  fields: 'Custom fields',
  folderId: 'Folder',
  tags: 'Tags',
  favorite: 'Favourite',
};

/** Parts whose values are secrets: shown masked until the person asks. */
export const SECRET_PARTS: ReadonlySet<DraftPart> = new Set(['password', 'totp']);

/** Whether two drafts hold the same value for `part` (what a save would store, not how it was typed). */
export function samePart(a: EntryDraft, b: EntryDraft, part: DraftPart): boolean {
  return JSON.stringify(canonical(a, part)) === JSON.stringify(canonical(b, part));
}

/** The parts that differ between two versions, in DRAFT_PARTS order. */
export function changedParts(older: EntryDraft, newer: EntryDraft): DraftPart[] {
  return DRAFT_PARTS.filter((part) => !samePart(older, newer, part));
}

/** A draft taking each part from `mine` or `theirs` as picked (mine where nothing is picked). */
export function mergeDrafts(
  mine: EntryDraft,
  theirs: EntryDraft,
  picks: Partial<Record<DraftPart, 'mine' | 'theirs'>>,
): EntryDraft {
  const merged: EntryDraft = { ...mine };
  for (const part of DRAFT_PARTS) if (picks[part] === 'theirs') Object.assign(merged, { [part]: theirs[part] });
  // The rules go with the addresses they belong to.
  if (picks.urls === 'theirs') merged.urlRules = { ...theirs.urlRules };
  // The form never changes the file list, the item view's file actions do, each on the newest
  // version: theirs is always the one that holds every file attached so far (decision 0084).
  delete merged.files;
  delete merged.deletedFiles;
  if (theirs.files) merged.files = theirs.files.map((file) => ({ ...file }));
  if (theirs.deletedFiles) merged.deletedFiles = [...theirs.deletedFiles];
  return merged;
}

/** The rule of an address (as saved: trimmed), or null when it follows the default. */
function ruleOf(draft: EntryDraft, url: string): UrlMatchRule | null {
  for (const [address, rule] of Object.entries(draft.urlRules ?? {})) if (address.trim() === url) return rule;
  return null;
}

function canonical(draft: EntryDraft, part: DraftPart): unknown {
  switch (part) {
    case 'urls':
      // An address and its match rule are one choice: a changed rule is a changed address.
      return draft.urls
        .map((url) => url.trim())
        .filter((url) => url !== '')
        .map((url) => [url, ruleOf(draft, url)]);
    case 'totp':
      return draft.totp.trim();
    case 'fields':
      return draft.fields
        .filter((field) => field.label.trim() !== '' || field.value !== '')
        .map(({ label, kind, value }) => [label.trim(), kind, value]);
    case 'card':
      return (
        draft.card && [
          draft.card.holder,
          draft.card.brand,
          draft.card.number,
          draft.card.code,
          draft.card.expMonth,
          draft.card.expYear,
        ]
      );
    case 'identity':
      return (
        draft.identity && [
          ...IDENTITY_FIELDS.map((name) => draft.identity![name]),
          draft.identity.ssn,
          draft.identity.passport,
          draft.identity.license,
        ]
      );
    case 'sshKey':
      return draft.sshKey ? [draft.sshKey.privateKey.trim(), draft.sshKey.comment.trim()] : null;
    default:
      return draft[part];
  }
}

const MASK = '••••••••';

/**
 * One part of a draft as text for a side-by-side view. Secrets (password, TOTP seed, hidden
 * field values, card number and code, identity numbers) are masked unless `reveal`.
 */
export function partText(
  draft: EntryDraft,
  part: DraftPart,
  { reveal = false, folderName }: { reveal?: boolean; folderName?: (id: string) => string | undefined } = {},
): string {
  const secret = (text: string) => (text === '' ? '' : reveal ? text : MASK);
  switch (part) {
    case 'type':
      return { login: 'Login', note: 'Secure note', card: 'Card', identity: 'Identity', sshKey: 'SSH key' }[draft.type];
    case 'password':
    case 'totp':
      return secret(draft[part].trim() === '' ? '' : draft[part]);
    case 'urls':
      return (canonical(draft, 'urls') as [string, UrlMatchRule | null][])
        .map(([url, rule]) => (rule === null ? url : `${url} (match: ${URL_MATCH_RULE_WORDS[rule]})`))
        .join('\n');
    case 'fields':
      return draft.fields
        .filter((field) => field.label.trim() !== '' || field.value !== '')
        .map((field) => {
          const value =
            field.kind === 'hidden'
              ? secret(field.value)
              : field.kind === 'boolean'
                ? field.value === 'true'
                  ? 'Yes'
                  : 'No'
                : field.value;
          return `${field.label.trim()}: ${value}`;
        })
        .join('\n');
    case 'card': {
      const card = draft.card;
      if (!card) return '';
      const expiry = card.expMonth || card.expYear ? `expires ${card.expMonth}/${card.expYear}` : '';
      return [card.holder, card.brand, secret(card.number), card.code === '' ? '' : `code ${secret(card.code)}`, expiry]
        .filter((line) => line !== '')
        .join('\n');
    }
    case 'identity': {
      const identity = draft.identity;
      if (!identity) return '';
      const lines = IDENTITY_FIELDS.map((name) => identity[name]).filter((value) => value !== '');
      for (const name of ['ssn', 'passport', 'license'] as const) if (identity[name] !== '') lines.push(secret(identity[name]));
      return lines.join('\n');
    }
    case 'sshKey':
      // The private key is the secret; the comment says which key it is.
      return draft.sshKey && draft.sshKey.privateKey.trim() !== ''
        ? [draft.sshKey.comment.trim(), secret(draft.sshKey.privateKey.trim())].filter((line) => line !== '').join('\n')
        : '';
    case 'folderId':
      return draft.folderId === null ? 'No folder' : (folderName?.(draft.folderId) ?? 'A folder that no longer exists');
    case 'tags':
      return draft.tags.join(', ');
    case 'favorite':
      return draft.favorite ? 'Yes' : 'No';
    default:
      return draft[part];
  }
}
