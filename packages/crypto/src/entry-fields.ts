import { FieldDecryptionError } from './errors';
import { decryptField, encryptField, entryFieldSet, type EntryFieldName, type EntryFieldSet } from './fields';

/** An entry's fields as texts; null or absent for a field the entry does not have. */
export type EntryTexts = Partial<Record<EntryFieldName, string | null>>;

/**
 * Seals an entry of the item format (it has an overview): each present field under the
 * vault key, bound to the entry id, the field and the whole field set. Absent fields come
 * back as null, so a write names them explicitly and the server clears them.
 */
export async function sealEntryFields(
  vaultKey: CryptoKey,
  entryId: string,
  plain: EntryTexts,
): Promise<Record<EntryFieldName, string | null>> {
  if (typeof plain.overview !== 'string') throw new TypeError('An entry of the item format has an overview.');
  const fieldSet = entryFieldSet(plain);
  const sealed = {} as Record<EntryFieldName, string | null>;
  for (const name of ['serviceName', 'username', 'password', 'url', 'notes', 'overview', 'details'] as const) {
    const value = plain[name];
    sealed[name] = typeof value === 'string' ? await encryptField(vaultKey, entryId, name, value, fieldSet) : null;
  }
  return sealed;
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
    opened[name] = typeof value === 'string' ? await decryptField(vaultKey, entryId, name, value, fieldSet) : null;
  }
  return opened;
}
