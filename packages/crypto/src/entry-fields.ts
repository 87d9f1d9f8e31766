import { FieldDecryptionError } from './errors';
import {
  decryptField,
  encryptField,
  entryFieldSet,
  openOverview,
  sealBoundOverview,
  type EntryFieldName,
  type EntryFieldSet,
  type OverviewSiblings,
} from './fields';

/** An entry's fields as texts; null or absent for a field the entry does not have. */
export type EntryTexts = Partial<Record<EntryFieldName, string | null>>;

const SIBLING_NAMES = ['serviceName', 'username', 'password', 'url', 'notes', 'details'] as const;

/**
 * Seals an entry of the item format (it has an overview): each present field under the
 * vault key, bound to the entry id, the field and the whole field set, and last the overview,
 * bound also to the ciphertexts of all the others (a v3 text, fields.ts sealBoundOverview).
 * Absent fields come back as null, so a write names them explicitly and the server clears them.
 */
export async function sealEntryFields(
  vaultKey: CryptoKey,
  entryId: string,
  plain: EntryTexts,
): Promise<Record<EntryFieldName, string | null>> {
  const { overview } = plain;
  if (typeof overview !== 'string') throw new TypeError('An entry of the item format has an overview.');
  const fieldSet = entryFieldSet(plain);
  const siblings = {} as OverviewSiblings;
  for (const name of SIBLING_NAMES) {
    const value = plain[name];
    siblings[name] = typeof value === 'string' ? await encryptField(vaultKey, entryId, name, value, fieldSet) : null;
  }
  return { ...siblings, overview: await sealBoundOverview(vaultKey, entryId, overview, siblings, fieldSet) };
}

/** The other fields' ciphertexts as stored, for opening a bound overview. */
function siblingsOf(stored: EntryTexts): OverviewSiblings {
  const siblings = {} as OverviewSiblings;
  for (const name of SIBLING_NAMES) {
    const value = stored[name];
    siblings[name] = typeof value === 'string' ? value : null;
  }
  return siblings;
}

/**
 * Opens only the overview of a stored entry of the item format: the one decryption the
 * vault's list needs. `bound` is true for a v3 overview, which opened only because every
 * other field is exactly as sealed with it (fields.ts sealBoundOverview); false for one
 * sealed before binding, whose other fields this proves nothing about. Throws
 * FieldDecryptionError when the overview is missing, damaged or the field set changed.
 */
export async function openEntryOverview(
  vaultKey: CryptoKey,
  entryId: string,
  stored: EntryTexts,
): Promise<{ overview: string; bound: boolean; fieldSet: EntryFieldSet }> {
  const fieldSet = storedFieldSet(stored);
  if (fieldSet === undefined || typeof stored.overview !== 'string')
    throw new TypeError('An entry of the item format has an overview.');
  const { text, bound } = await openOverview(vaultKey, entryId, stored.overview, siblingsOf(stored), fieldSet);
  return { overview: text, bound, fieldSet };
}

/**
 * The field set a stored entry's fields were sealed with: its present fields when it has an
 * overview (format v2), undefined for an entry saved before items (format v1). Taken from
 * what the server sent, so anything the server added or removed fails every field.
 */
export function storedFieldSet(stored: EntryTexts): EntryFieldSet | undefined {
  if (typeof stored.overview !== 'string') return undefined;
  const fieldSet = entryFieldSet(stored);
  if (!REQUIRED.every((name) => fieldSet.includes(name))) {
    throw new FieldDecryptionError(
      'authentication',
      'This item lost one of its fields on the server, so Lockit will not show it.',
    );
  }
  return fieldSet;
}

const REQUIRED: readonly EntryFieldName[] = ['serviceName', 'username', 'password', 'overview'];

/**
 * Opens the named fields of a stored entry (all must be present, except that an absent
 * optional field opens as null). Throws FieldDecryptionError if any was tampered with, moved,
 * or if the entry's field set changed; never returns part of a damaged entry.
 */
export async function openEntryFields<const Names extends readonly EntryFieldName[]>(
  vaultKey: CryptoKey,
  entryId: string,
  stored: EntryTexts,
  names: Names,
): Promise<Record<Names[number], string | null>> {
  const fieldSet = storedFieldSet(stored);
  const opened = {} as Record<Names[number], string | null>;
  for (const name of names as readonly Names[number][]) {
    const value = stored[name];
    if (typeof value !== 'string') opened[name] = null;
    else if (name === 'overview' && fieldSet !== undefined)
      opened[name] = (await openOverview(vaultKey, entryId, value, siblingsOf(stored), fieldSet)).text;
    else opened[name] = await decryptField(vaultKey, entryId, name, value, fieldSet);
  }
  return opened;
}
