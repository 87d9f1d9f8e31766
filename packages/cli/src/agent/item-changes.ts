import { IDENTITY_FIELDS, type IdentityField } from '@lockit/contract';
import { checkEntryPlaintext, emptyDraft, EntryDraftError, entryPlaintext, type EntryDraft } from '@lockit/client-core';
import { AgentError } from './agent-error';

export const ITEM_TYPES = ['login', 'note', 'card', 'identity'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** The parts of a card the command line sets by option (the number and code are secrets). */
const CARD_PARTS = ['holder', 'brand', 'expMonth', 'expYear'] as const;
/** The secrets a command takes from standard input or a prompt, never from its arguments. */
export const SECRET_PARTS = ['password', 'number', 'code', 'ssn', 'passport', 'license', 'notes', 'totp'] as const;
type SecretPart = (typeof SECRET_PARTS)[number];

/**
 * What `lockit add` and `lockit edit` change, as the thin client sends it: only the parts the
 * person gave. `folder` is a folder's name ('' for none), resolved by the caller.
 */
export interface ItemChanges {
  name?: string;
  username?: string;
  urls?: string[];
  folder?: string;
  tags?: string[];
  notes?: string;
  favorite?: boolean;
  card?: Partial<Record<(typeof CARD_PARTS)[number], string>>;
  identity?: Partial<Record<IdentityField, string>>;
  secrets?: Partial<Record<SecretPart, string>>;
}

/** The request's changes, each checked to be of the kind it should; anything else is refused. */
export function itemChangesOf(args: Record<string, unknown>): ItemChanges {
  const changes: ItemChanges = {};
  for (const name of ['name', 'username', 'folder', 'notes'] as const) {
    if (args[name] !== undefined) changes[name] = textOf(args[name], name);
  }
  for (const name of ['urls', 'tags'] as const) {
    if (args[name] !== undefined) changes[name] = listOf(args[name], name);
  }
  if (args['favorite'] !== undefined) {
    if (typeof args['favorite'] !== 'boolean') throw new AgentError('usage', 'favorite is true or false.');
    changes.favorite = args['favorite'];
  }
  changes.card = partsOf(args['card'], CARD_PARTS, 'card');
  changes.identity = partsOf(args['identity'], IDENTITY_FIELDS, 'identity');
  changes.secrets = partsOf(args['secrets'], SECRET_PARTS, 'secrets');
  return changes;
}

/** A new item of `type` with `changes` (its name required). */
export function newDraft(type: unknown, changes: ItemChanges, folderId: string | null): EntryDraft {
  if (!ITEM_TYPES.includes(type as ItemType)) {
    throw new AgentError('usage', `The type is one of ${ITEM_TYPES.join(', ')}.`);
  }
  if (!changes.name?.trim()) throw new AgentError('usage', 'A new item needs a name (--name).');
  return checked(applyChanges(emptyDraft(type as ItemType), changes, folderId));
}

/** The draft, after the core's own checks (its caps and formats): a bad one is refused before anything is sent. */
export function checked(draft: EntryDraft): EntryDraft {
  try {
    checkEntryPlaintext(entryPlaintext(draft));
  } catch (error) {
    if (error instanceof EntryDraftError) throw new AgentError('usage', error.message);
    throw error;
  }
  return draft;
}

/**
 * `draft` with the given parts changed; the rest kept. Parts that do not belong to the item's
 * type are refused (a card has no user name), so a mistyped command changes nothing.
 */
export function applyChanges(draft: EntryDraft, changes: ItemChanges, folderId: string | null | undefined): EntryDraft {
  const type = draft.type;
  const refuse = (part: string) => {
    throw new AgentError('usage', `A ${type} item has no ${part}.`);
  };
  if (type !== 'login') {
    if (changes.username !== undefined) refuse('user name');
    if (changes.urls !== undefined) refuse('web address');
    if (changes.secrets?.password !== undefined) refuse('password');
    if (changes.secrets?.totp !== undefined) refuse('TOTP');
  }
  if (type !== 'card') {
    if (Object.keys(changes.card ?? {}).length > 0) refuse('card details');
    if (changes.secrets?.number !== undefined || changes.secrets?.code !== undefined) refuse('card number or code');
  }
  if (type !== 'identity') {
    if (Object.keys(changes.identity ?? {}).length > 0) refuse('identity details');
    for (const part of ['ssn', 'passport', 'license'] as const) if (changes.secrets?.[part] !== undefined) refuse(part);
  }
  const secrets = changes.secrets ?? {};
  const next: EntryDraft = {
    ...draft,
    serviceName: changes.name ?? draft.serviceName,
    username: changes.username ?? draft.username,
    password: secrets.password ?? draft.password,
    urls: changes.urls ?? draft.urls,
    notes: secrets.notes ?? changes.notes ?? draft.notes,
    totp: secrets.totp ?? draft.totp,
    tags: changes.tags ?? draft.tags,
    favorite: changes.favorite ?? draft.favorite,
    folderId: folderId === undefined ? draft.folderId : folderId,
  };
  if (next.card) {
    next.card = { ...next.card, ...changes.card };
    if (secrets.number !== undefined) next.card.number = secrets.number;
    if (secrets.code !== undefined) next.card.code = secrets.code;
  }
  if (next.identity) {
    next.identity = { ...next.identity, ...changes.identity };
    for (const part of ['ssn', 'passport', 'license'] as const)
      if (secrets[part] !== undefined) next.identity[part] = secrets[part];
  }
  return next;
}

function textOf(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new AgentError('usage', `${name} is text.`);
  return value;
}

function listOf(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new AgentError('usage', `${name} is a list of text.`);
  }
  return value as string[];
}

function partsOf<K extends string>(value: unknown, parts: readonly K[], name: string): Partial<Record<K, string>> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) throw new AgentError('usage', `${name} is a set of parts.`);
  const result: Partial<Record<K, string>> = {};
  for (const [key, part] of Object.entries(value)) {
    if (part === undefined) continue;
    if (!parts.includes(key as K)) throw new AgentError('usage', `Unknown ${name} part "${key}".`);
    result[key as K] = textOf(part, key);
  }
  return result;
}

/** The secrets each type reads from standard input, one a line, in this order. */
const STDIN_LINES: Record<ItemType, readonly SecretPart[]> = {
  login: ['password'],
  card: ['number', 'code'],
  identity: ['ssn', 'passport', 'license'],
  note: [],
};

/**
 * `changes` with the secrets of `--stdin` (standard input as the person gave it) read by the
 * item's type: a note's whole text; else one a line, in STDIN_LINES' order. On an edit an empty
 * line keeps that secret; on an add it is none.
 */
export function withStdinSecrets(changes: ItemChanges, type: string, stdin: unknown, editing: boolean): ItemChanges {
  if (stdin === undefined) return changes;
  if (typeof stdin !== 'string') throw new AgentError('usage', 'stdin is text.');
  const secrets: Partial<Record<SecretPart, string>> = { ...changes.secrets };
  if (type === 'note') {
    secrets.notes = stdin;
  } else {
    const lines = stdin.split(/\r?\n/);
    (STDIN_LINES[type as ItemType] ?? []).forEach((part, i) => {
      const value = lines[i];
      if (value !== undefined && !(editing && value === '')) secrets[part] = value;
    });
  }
  return { ...changes, secrets };
}
