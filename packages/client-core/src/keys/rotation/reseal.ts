import type { AccountDocumentKind, EntryVersionWire, EntryWire, FolderWire } from '@lockit/contract';
import {
  encryptField,
  rewrapAttachmentKey,
  ENTRY_FIELD_NAMES,
  entryElement,
  folderElement,
  openEntryFields,
  sealEntryFields,
  storedFieldSet,
  trashedElementOf,
  type EntryFieldName,
} from '@lockit/crypto';
import { openFolderName, sealFolderName } from '../../vault/folders/folder-name';
import { trashTimeOf } from '../../vault/integrity/trash-time';
import { resealAccountDocument } from './account-document-reseal';
import { listedOverview } from './listed-overview';

/** The seven ciphertexts of an entry or a version; the optional ones null when absent. */
export type EntryCiphertexts = Record<'serviceName' | 'username' | 'password', string> &
  Record<'url' | 'notes' | 'overview' | 'details', string | null>;

/**
 * The keys of one rotation. `oldIntegrityKey` checks that what the server served is the vault
 * its state authenticates; `newIntegrityKey` authenticates the re-encrypted vault.
 */
export interface ResealKeys {
  oldKey: CryptoKey;
  newKey: CryptoKey;
  oldIntegrityKey: CryptoKey;
  newIntegrityKey: CryptoKey;
}

/** A file's key as the server holds it: wrapped under the vault key for its entry and id. */
export interface AttachmentKeyWire {
  id: string;
  entryId: string;
  wrappedKey: string;
}

/** One unit of re-encryption: an entry with every earlier version, a folder, an account document, or a file's key. */
export type ResealUnit =
  | { type: 'entry'; entry: EntryWire; versions: readonly EntryVersionWire[] }
  | { type: 'folder'; folder: FolderWire }
  | { type: 'document'; kind: AccountDocumentKind; ciphertext: string }
  | { type: 'attachment'; file: AttachmentKeyWire };

/**
 * A unit re-encrypted. Every entry (live or, with `trashed`, in Trash: its elements then bind
 * its trash time, decision 0061) and every folder carry two integrity elements: `before` (as
 * served, under the old integrity key) and `after` (the new ciphertexts at revision + 1, which
 * the commit assigns, under the new one). `damaged`: some part did not open under the old key,
 * so nothing of the unit is kept.
 */
export type ResealedUnit =
  | {
      type: 'entry';
      entry: { id: string } & EntryCiphertexts;
      versions: ({ entryId: string; revision: number } & EntryCiphertexts)[];
      elements: { before: Uint8Array; after: Uint8Array };
      trashed: boolean;
    }
  | { type: 'folder'; folder: { id: string; name: string }; elements: { before: Uint8Array; after: Uint8Array } }
  | { type: 'document'; document: { kind: AccountDocumentKind; document: string } }
  | { type: 'attachment'; attachment: AttachmentKeyWire }
  | { type: 'damaged' };

/**
 * Opens every field of a stored entry or version under `oldKey` and seals it under `newKey`
 * with the binding it had: the entry id, the field and, for the item format, the same field
 * set, the overview now always bound to the other fields and, where it was a version 1
 * overview, upgraded to version 2 (listed-overview.ts), so a rotated vault opens with one
 * decryption per entry. The format before items keeps its v1 binding. Absent fields stay
 * null. Throws when any field does not open: all or nothing, like the vault's own opening.
 */
async function resealFields(keys: ResealKeys, entryId: string, stored: EntryCiphertexts): Promise<EntryCiphertexts> {
  const fieldSet = storedFieldSet(stored);
  const opened = await openEntryFields(keys.oldKey, entryId, stored, ENTRY_FIELD_NAMES);
  if (fieldSet !== undefined && opened.overview !== null) {
    const overview = listedOverview(opened.overview, opened.serviceName ?? '', opened.username ?? '');
    return checkedCiphertexts(await sealEntryFields(keys.newKey, entryId, { ...opened, overview }));
  }
  const seal = (name: EntryFieldName) => {
    const text = opened[name];
    return text === null ? null : encryptField(keys.newKey, entryId, name, text);
  };
  return checkedCiphertexts(
    Object.fromEntries(await Promise.all(ENTRY_FIELD_NAMES.map(async (name) => [name, await seal(name)]))),
  );
}

function checkedCiphertexts(sealed: Partial<Record<EntryFieldName, string | null>>): EntryCiphertexts {
  const { serviceName, username, password, url, notes, overview, details } = sealed;
  if (typeof serviceName !== 'string' || typeof username !== 'string' || typeof password !== 'string') {
    throw new TypeError('An entry has a service name, a user name and a password.');
  }
  return {
    serviceName,
    username,
    password,
    url: url ?? null,
    notes: notes ?? null,
    overview: overview ?? null,
    details: details ?? null,
  };
}

const ciphertextsOf = (stored: EntryCiphertexts): EntryCiphertexts => ({
  serviceName: stored.serviceName,
  username: stored.username,
  password: stored.password,
  url: stored.url,
  notes: stored.notes,
  overview: stored.overview,
  details: stored.details,
});

async function resealEntry(keys: ResealKeys, unit: Extract<ResealUnit, { type: 'entry' }>): Promise<ResealedUnit> {
  const { entry } = unit;
  const [fields, versions] = await Promise.all([
    resealFields(keys, entry.id, ciphertextsOf(entry)),
    Promise.all(
      unit.versions.map(async (version) => ({
        entryId: entry.id,
        revision: version.revision,
        ...(await resealFields(keys, entry.id, ciphertextsOf(version))),
      })),
    ),
  ]);
  const before = { id: entry.id, revision: entry.revision, ...ciphertextsOf(entry) };
  const after = { id: entry.id, revision: entry.revision + 1, ...fields };
  if (entry.deletedAt === null) {
    const elements = {
      before: await entryElement(keys.oldIntegrityKey, before),
      after: await entryElement(keys.newIntegrityKey, after),
    };
    return { type: 'entry', entry: { id: entry.id, ...fields }, versions, elements, trashed: false };
  }
  // In Trash (decision 0061): its element binds its trash time, which the commit keeps. One
  // served without a readable time cannot be sealed honestly: the unit counts as damaged.
  const trashedAt = trashTimeOf(entry.deletedAt);
  if (trashedAt === null) throw new TypeError('A trashed entry was served without a readable trash time.');
  const elements = {
    before: await trashedElementOf(keys.oldIntegrityKey, before, trashedAt),
    after: await trashedElementOf(keys.newIntegrityKey, after, trashedAt),
  };
  return { type: 'entry', entry: { id: entry.id, ...fields }, versions, elements, trashed: true };
}

async function resealFolder(keys: ResealKeys, folder: FolderWire): Promise<ResealedUnit> {
  const name = await sealFolderName(keys.newKey, folder.id, await openFolderName(keys.oldKey, folder.id, folder.name));
  const [before, after] = await Promise.all([
    folderElement(keys.oldIntegrityKey, folder),
    folderElement(keys.newIntegrityKey, { id: folder.id, revision: folder.revision + 1, name }),
  ]);
  return { type: 'folder', folder: { id: folder.id, name }, elements: { before, after } };
}

/**
 * A file's key re-wrapped under the new vault key for the same entry and file (decision 0071):
 * its metadata and content, sealed under that file key, stay as they are on the server.
 */
async function rewrapFileKey(keys: ResealKeys, file: AttachmentKeyWire): Promise<ResealedUnit> {
  const ids = { itemId: file.entryId.toLowerCase(), fileId: file.id.toLowerCase() };
  const wrappedKey = await rewrapAttachmentKey(keys.oldKey, keys.newKey, file.wrappedKey, ids);
  return { type: 'attachment', attachment: { id: ids.fileId, entryId: ids.itemId, wrappedKey } };
}

/**
 * Re-encrypts one unit under the new key. Never throws: a unit any part of which does not
 * open (or is malformed) comes back `damaged`, and the rotation counts them before it starts.
 *
 * Security invariant: every text is opened and authenticated under the old key before it is
 * sealed under the new one, with the same associated data, so a rotation can neither launder
 * a tampered field nor move one to another entry, field, folder or document kind; a file's key is
 * unwrapped for its own entry and file id before it is wrapped again for the same ones.
 */
export async function resealUnit(keys: ResealKeys, unit: ResealUnit): Promise<ResealedUnit> {
  try {
    if (unit.type === 'entry') return await resealEntry(keys, unit);
    if (unit.type === 'folder') return await resealFolder(keys, unit.folder);
    if (unit.type === 'attachment') return await rewrapFileKey(keys, unit.file);
    const document = await resealAccountDocument(keys.oldKey, keys.newKey, unit.kind, unit.ciphertext);
    return { type: 'document', document: { kind: unit.kind, document } };
  } catch {
    return { type: 'damaged' };
  }
}
