import {
  emptyOverview,
  entrySchema,
  overviewDocumentSchema,
  parseEntryDocument,
  type EntryWire,
  type OverviewDocument,
} from '@lockit/contract';
import { decryptField, openEntryFields, openEntryOverview, type EntryFieldSet } from '@lockit/crypto';
import type { RevisionMemory } from './revision-memory';
import { foldForSearch, nameSortKey } from './search-text';
import { damagedEntry, type OpenEntry, type VaultEntry } from './vault-entry';
import { yieldToMain } from './yield-to-main';

/** Entries per slice: 500 to 2,000 decryptions, a few milliseconds of main-thread work. */
export const DECRYPT_BATCH_SIZE = 500;

/** Folder names by folder id, for search (an entry is found by the name of its folder). */
export type FolderNames = ReadonlyMap<string, string>;

interface OpenOptions {
  revisions?: RevisionMemory;
  folderNames?: FolderNames;
}

/**
 * Decrypts what the list needs of every entry (its bound overview alone; for entries saved
 * before binding, the service name, user name, web address and overview), in slices with a
 * yield to the event loop between them, so 10,000 entries never make one long task. The
 * order of `raw` is kept.
 *
 * Security invariant: an entry whose fields do not decrypt under this vault key, for this
 * entry id, this field and (item format) this field set (moved, tampered, dropped, added,
 * plaintext, unknown version), or whose overview is not valid JSON in the contract's
 * allow-list, becomes a DamagedEntry; nothing of it is shown, never a partial entry. So does
 * one at a lower revision than `revisions` holds for it (a rollback). Entries without a
 * usable id cannot be addressed, even to delete them, and are left out.
 */
export async function openEntries(
  vaultKey: CryptoKey,
  raw: readonly unknown[],
  { signal, batchSize = DECRYPT_BATCH_SIZE, ...options }: OpenOptions & { signal?: AbortSignal; batchSize?: number } = {},
): Promise<VaultEntry[]> {
  const openSlice = (start: number) =>
    Promise.all(raw.slice(start, start + batchSize).map((entry) => openEntry(vaultKey, entry, options)));
  const entries: VaultEntry[] = [];
  // Two slices in flight: while this thread handles one slice's results, WebCrypto works on the next.
  let current = openSlice(0);
  for (let start = 0; start < raw.length; start += batchSize) {
    let next: typeof current | null = null;
    if (start + batchSize < raw.length) {
      await yieldToMain();
      signal?.throwIfAborted();
      next = openSlice(start + batchSize);
    }
    for (const entry of await current) if (entry) entries.push(entry);
    if (next) current = next;
  }
  signal?.throwIfAborted();
  return entries;
}

/**
 * One entry from the wire (an element of the list answer, or the answer to an add, an update,
 * a delete or a restore). With `revisions`, an entry older than one this tab saw is refused,
 * and one that opens is noted. The `RevisionMemory` may also be passed alone, as before.
 */
export async function openEntry(
  vaultKey: CryptoKey,
  raw: unknown,
  options: OpenOptions | RevisionMemory = {},
): Promise<VaultEntry | null> {
  const { revisions, folderNames } = 'note' in options ? { revisions: options, folderNames: undefined } : options;
  const candidate = withId(raw);
  const parsed = entrySchema.safeParse(candidate);
  if (!parsed.success) {
    const id = idOf(candidate);
    return id === null ? null : damagedEntry(id, stringOf(candidate, 'createdAt'), 'undecryptable', looseState(candidate));
  }
  const wire = parsed.data;
  const state = { revision: wire.revision, deletedAt: wire.deletedAt };
  if (revisions?.isRollback(wire.id, wire.revision)) return damagedEntry(wire.id, wire.createdAt, 'rolled-back', state);
  try {
    const entry = wire.overview === null ? await openLegacy(vaultKey, wire) : await openItem(vaultKey, wire);
    revisions?.note(wire.id, wire.revision);
    const folderName = entry.folderId === null ? undefined : folderNames?.get(entry.folderId);
    return folderName === undefined ? entry : { ...entry, searchText: searchTextOf(entry, folderName) };
  } catch {
    // A failed decryption, bad JSON or a document outside the allow-list: all or nothing.
    return damagedEntry(wire.id, wire.createdAt, 'undecryptable', state);
  }
}

/**
 * An entry of the item format: every field bound to the id, the field and the field set.
 * A version 2 overview, sealed bound to the entry's other fields, is the one decryption: its
 * copies of the name and user name are the entry's, since it opened only beside the very
 * ciphertexts it was sealed with. A version 1 overview (saved before binding) needs the name,
 * user name and web address opened too; a version 2 overview not bound is not one Lockit
 * writes, and is refused.
 */
async function openItem(vaultKey: CryptoKey, wire: EntryWire): Promise<OpenEntry> {
  const opened = await openEntryOverview(vaultKey, wire.id, wire);
  const fieldSet = internFieldSet(opened.fieldSet);
  const overview = parseEntryDocument(overviewDocumentSchema, opened.overview, 'overview');
  if (overview.v === 2) {
    if (!opened.bound || overview.name === undefined || overview.username === undefined)
      throw new TypeError('A version 2 overview is sealed bound to its entry.');
    return toOpenEntry(wire, overview.name, overview.username, overview.urls[0] ?? null, overview, fieldSet);
  }
  const fields = await openEntryFields(vaultKey, wire.id, wire, ['serviceName', 'username', 'url']);
  return toOpenEntry(wire, fields.serviceName ?? '', fields.username ?? '', fields.url, overview, fieldSet);
}

/** An entry saved before items (format v1 associated data): a login with one web address. */
async function openLegacy(vaultKey: CryptoKey, wire: EntryWire): Promise<OpenEntry> {
  // A legacy entry has no documents: a details field without an overview is not one Lockit made.
  if (wire.details !== null) throw new TypeError('Details without an overview.');
  const [serviceName, username, url] = await Promise.all([
    decryptField(vaultKey, wire.id, 'serviceName', wire.serviceName),
    decryptField(vaultKey, wire.id, 'username', wire.username),
    wire.url === null ? null : decryptField(vaultKey, wire.id, 'url', wire.url),
  ]);
  return toOpenEntry(wire, serviceName, username, url, legacyOverview(url), undefined);
}

/** What a legacy entry means in the item model. */
export function legacyOverview(url: string | null): OverviewDocument {
  return { ...emptyOverview('login'), urls: url === null || url === '' ? [] : [url] };
}

function toOpenEntry(
  wire: EntryWire,
  serviceName: string,
  username: string,
  url: string | null,
  overview: OverviewDocument,
  fieldSet: EntryFieldSet | undefined,
): OpenEntry {
  const entry: OpenEntry = {
    status: 'open',
    id: wire.id,
    type: overview.type,
    serviceName,
    name: serviceName,
    username,
    url,
    urls: overview.urls,
    ...(overview.urlRules && { urlRules: overview.urlRules }),
    tags: overview.tags,
    folderId: overview.folderId,
    favorite: overview.favorite,
    hasTotp: overview.hasTotp,
    fields: overview.fields,
    card: overview.card,
    identity: overview.identity,
    sshKey: overview.sshKey ?? null,
    ...(overview.files && { files: overview.files }),
    ...(overview.deletedFiles && { deletedFiles: overview.deletedFiles }),
    createdAt: wire.createdAt,
    updatedAt: wire.updatedAt,
    deletedAt: wire.deletedAt,
    revision: wire.revision,
    format: fieldSet === undefined ? 'legacy' : 'item',
    sealed: { password: wire.password, notes: wire.notes, details: wire.details, fieldSet },
    sortKey: nameSortKey(serviceName),
    searchText: '',
  };
  entry.searchText = searchTextOf(entry);
  return entry;
}

/**
 * The text search reads: folded service name, user name, every web address, tags and the
 * folder's name. A newline cannot be typed into the search box, so a match never spans two
 * fields.
 */
export function searchTextOf(
  entry: Pick<OpenEntry, 'serviceName' | 'username' | 'url' | 'urls' | 'tags'>,
  folderName?: string,
): string {
  const urls = entry.urls.length === 0 && entry.url !== null ? [entry.url] : entry.urls;
  const parts = [entry.serviceName, entry.username, ...urls, ...entry.tags];
  if (folderName !== undefined) parts.push(folderName);
  // Folded one by one: folding collapses whitespace, newlines included.
  return parts.map(foldForSearch).join('\n');
}

/** The same entry with its folder's name in its search text (after a folder loaded or was renamed). */
export function withFolderName(entry: OpenEntry, folderName: string | undefined): OpenEntry {
  const searchText = searchTextOf(entry, folderName);
  return searchText === entry.searchText ? entry : { ...entry, searchText };
}

/**
 * Most entries share a handful of field sets: one frozen array per set, not one per entry,
 * so 10,000 entries hold a few arrays.
 */
const fieldSets = new Map<string, EntryFieldSet>();
export function internFieldSet(fieldSet: EntryFieldSet | undefined): EntryFieldSet {
  if (fieldSet === undefined) throw new TypeError('An entry of the item format has a field set.');
  const key = fieldSet.join(',');
  let shared = fieldSets.get(key);
  if (!shared) {
    shared = Object.freeze([...fieldSet]);
    fieldSets.set(key, shared);
  }
  return shared;
}

/** The spec allows `_id` in place of `id`. */
function withId(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || 'id' in raw || !('_id' in raw)) return raw;
  return { ...raw, id: (raw as { _id: unknown })._id };
}

function idOf(raw: unknown): string | null {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

function stringOf(raw: unknown, key: string): string {
  const value = (raw as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : '';
}

/** What a malformed entry still says of its revision and Trash state, so it can be deleted. */
function looseState(raw: unknown): { revision: number | null; deletedAt: string | null } {
  const { revision, deletedAt } = raw as Record<string, unknown>;
  return {
    revision: typeof revision === 'number' && Number.isInteger(revision) && revision >= 1 ? revision : null,
    deletedAt: typeof deletedAt === 'string' ? deletedAt : null,
  };
}
