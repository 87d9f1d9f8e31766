import { utf8Decode, utf8Encode } from './encoding';
import { AuthenticationFailedError, CiphertextFormatError, FieldDecryptionError } from './errors';
import { BOUND_CIPHERTEXT_VERSION, type CiphertextVersion } from './ciphertext-format';
import { openSealed, sealPadded } from './sealed-text';

/** Every encrypted field of an entry, in the canonical order of a field set. */
export const ENTRY_FIELD_NAMES = ['serviceName', 'username', 'password', 'url', 'notes', 'overview', 'details'] as const;
export type EntryFieldName = (typeof ENTRY_FIELD_NAMES)[number];

/** The fields every entry of the item format has; `url`, `notes` and `details` are optional. */
const REQUIRED_IN_SET: readonly EntryFieldName[] = ['serviceName', 'username', 'password', 'overview'];

/**
 * The set of fields an entry has, in canonical order: part of every field's associated data
 * (format v2), so a server that drops, adds or swaps a field makes every field fail.
 */
export type EntryFieldSet = readonly EntryFieldName[];

/** The canonical field set of the fields present (a string value) in `entry`. */
export function entryFieldSet(entry: Partial<Record<EntryFieldName, string | null | undefined>>): EntryFieldSet {
  return ENTRY_FIELD_NAMES.filter((name) => typeof entry[name] === 'string');
}

/** How each field is named in messages a person reads. */
const FIELD_LABELS: Record<EntryFieldName, string> = {
  serviceName: 'service name',
  username: 'user name',
  password: 'password',
  url: 'web address',
  notes: 'notes',
  overview: 'overview',
  details: 'details',
};

/**
 * AAD of an entry field. Without a field set (entries saved before items, format v1):
 * `lockit/v1/entry|<entryId lowercased>|<field>`, binding the ciphertext to one entry and one
 * field. With one (format v2, every entry that has an overview):
 * `lockit/v2/entry|<entryId lowercased>|<field>|<field set, comma-separated>`, which also
 * binds it to the exact set of fields the entry has: removing, adding, duplicating or
 * swapping any field changes the set every other field was sealed with, so the whole entry
 * fails to decrypt instead of opening with less in it. A v2 text never opens as v1 (and the
 * reverse), so a server cannot strip the overview to pass an entry off as an old one. The id
 * is lowercased because a UUID may come back in either case. Changing these strings makes
 * every stored field unreadable.
 */
export function fieldAad(entryId: string, field: EntryFieldName, fieldSet?: EntryFieldSet): string {
  if (typeof entryId !== 'string' || entryId.length === 0) throw new TypeError('An entry id is required.');
  if (!(ENTRY_FIELD_NAMES as readonly string[]).includes(field)) throw new TypeError('Unknown entry field.');
  if (fieldSet === undefined) {
    if (field === 'overview' || field === 'details') throw new TypeError('An entry with an overview needs its field set.');
    return `lockit/v1/entry|${entryId.toLowerCase()}|${field}`;
  }
  const canonical = ENTRY_FIELD_NAMES.filter((name) => fieldSet.includes(name));
  if (canonical.length !== fieldSet.length || canonical.some((name, i) => name !== fieldSet[i])) {
    throw new TypeError('A field set lists known fields once each, in canonical order.');
  }
  if (!REQUIRED_IN_SET.every((name) => fieldSet.includes(name)))
    throw new TypeError('A field set must name the required fields.');
  if (!fieldSet.includes(field)) throw new TypeError('The field is not in the field set.');
  return `lockit/v2/entry|${entryId.toLowerCase()}|${field}|${fieldSet.join(',')}`;
}

/**
 * AES-256-GCM under the vault key, fresh random 96-bit IV per call, AAD = fieldAad(entryId,
 * field, fieldSet), the UTF-8 text padded to its size bucket first. Returns `v2.<iv>.<data>`
 * (the text format's version, which is not the AAD's): its length tells the server the
 * text's bucket (paddedLength), never its exact length.
 * Throws TypeError for text with an unpaired surrogate, which could not be stored faithfully.
 */
export async function encryptField(
  vaultKey: CryptoKey,
  entryId: string,
  field: EntryFieldName,
  plaintext: string,
  fieldSet?: EntryFieldSet,
): Promise<string> {
  const aad = utf8Encode(fieldAad(entryId, field, fieldSet));
  if (typeof plaintext !== 'string') throw new TypeError('Only text can be encrypted as an entry field.');
  return sealPadded(vaultKey, utf8Encode(plaintext), aad);
}

/**
 * Opens a v2 (padded) or v1 (saved before length hiding) field. Throws FieldDecryptionError:
 * reason 'format' (not a Lockit ciphertext, e.g. plaintext), 'version' (a later format, or a
 * bound v3 text anywhere but through openOverview), 'authentication' (wrong vault key, another
 * entry or field, a flipped bit, truncation, a relabelled version, damaged padding). Never
 * returns wrong data.
 */
export async function decryptField(
  vaultKey: CryptoKey,
  entryId: string,
  field: EntryFieldName,
  ciphertext: string,
  fieldSet?: EntryFieldSet,
): Promise<string> {
  return openField(vaultKey, field, ciphertext, utf8Encode(fieldAad(entryId, field, fieldSet)));
}

/** The ciphertexts of an entry's fields other than its overview; null for one it does not have. */
export type OverviewSiblings = Record<Exclude<EntryFieldName, 'overview'>, string | null>;

/**
 * AAD of a bound (v3) overview: the overview's own field AAD (format v2, with the field set),
 * then `|` and the JSON array of the other six ciphertexts in canonical order, null for an
 * absent one. JSON keeps the texts apart and null distinct from "". Changing this makes every
 * bound overview unreadable.
 */
export function boundOverviewAad(entryId: string, siblings: OverviewSiblings, fieldSet: EntryFieldSet): string {
  const { serviceName, username, password, url, notes, details } = siblings;
  const texts = [serviceName, username, password, url, notes, details];
  if (!texts.every((text) => text === null || typeof text === 'string')) throw new TypeError('A sibling is text or null.');
  return `${fieldAad(entryId, 'overview', fieldSet)}|${JSON.stringify(texts)}`;
}

/**
 * Seals an entry's overview as a v3 text whose associated data binds the exact ciphertexts
 * of its other fields (boundOverviewAad), so it is sealed after every other field.
 * Security invariant: the overview then opens only beside those very ciphertexts: a server
 * that drops, adds, swaps, moves, replaces (even with an older revision of the same entry)
 * or alters any field makes the overview, and so the whole entry, fail at once; the list can
 * trust the overview's copies of the name and user name without opening those fields.
 */
export async function sealBoundOverview(
  vaultKey: CryptoKey,
  entryId: string,
  overview: string,
  siblings: OverviewSiblings,
  fieldSet: EntryFieldSet,
): Promise<string> {
  if (typeof overview !== 'string') throw new TypeError('Only text can be encrypted as an entry field.');
  const aad = utf8Encode(boundOverviewAad(entryId, siblings, fieldSet));
  return sealPadded(vaultKey, utf8Encode(overview), aad, BOUND_CIPHERTEXT_VERSION);
}

/**
 * Opens an entry's overview: a bound (v3) text against `siblings` as served, or one sealed
 * before binding (v2, v1) like any field. `bound` says which, so a reader can require it.
 * Throws FieldDecryptionError like decryptField; for a bound text, a changed sibling is an
 * 'authentication' failure.
 */
export async function openOverview(
  vaultKey: CryptoKey,
  entryId: string,
  ciphertext: string,
  siblings: OverviewSiblings,
  fieldSet: EntryFieldSet,
): Promise<{ text: string; bound: boolean }> {
  if (typeof ciphertext === 'string' && ciphertext.startsWith(`${BOUND_CIPHERTEXT_VERSION}.`)) {
    const aad = utf8Encode(boundOverviewAad(entryId, siblings, fieldSet));
    return { text: await openField(vaultKey, 'overview', ciphertext, aad, [BOUND_CIPHERTEXT_VERSION]), bound: true };
  }
  return { text: await decryptField(vaultKey, entryId, 'overview', ciphertext, fieldSet), bound: false };
}

/** openSealed with the field's readable errors (see decryptField). */
async function openField(
  vaultKey: CryptoKey,
  field: EntryFieldName,
  ciphertext: string,
  aad: Uint8Array,
  versions?: readonly CiphertextVersion[],
): Promise<string> {
  const label = FIELD_LABELS[field];
  let bytes: Uint8Array;
  try {
    bytes = await openSealed(vaultKey, ciphertext, aad, versions);
  } catch (error) {
    if (error instanceof CiphertextFormatError) {
      const message =
        error.reason === 'version'
          ? `The ${label} of this item was saved by a newer version of Lockit. Update Lockit to read it.`
          : `The ${label} of this item is not in Lockit's encrypted format, so Lockit will not show it.`;
      throw new FieldDecryptionError(error.reason, message);
    }
    if (error instanceof AuthenticationFailedError) {
      throw new FieldDecryptionError(
        'authentication',
        `The ${label} of this item could not be decrypted: it was changed, moved from another item or field, belongs to another account, or the item lost or gained a field on the server. Lockit will not show it.`,
      );
    }
    throw error;
  }
  try {
    return utf8Decode(bytes);
  } catch {
    // Authentic but not UTF-8: not something encryptField makes, so refuse it.
    throw new FieldDecryptionError('format', `The ${label} of this item is not readable text, so Lockit will not show it.`);
  }
}
