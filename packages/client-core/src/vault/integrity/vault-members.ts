import type { FolderWire } from '@lockit/contract';
import { entryElement, folderElement, trashedElementOf, type VaultEntryMember, type VaultFolderMember } from '@lockit/crypto';
import { trashTimeOf } from './trash-time';
import { writtenEntryMember } from './entry-members';

/**
 * One entry's element as the list served it (decisions 0053, 0061). `element` is, for a live
 * entry, its element in the live set at `revision`; for a trashed one, the element it will have
 * once restored (the server restores at revision + 1, same ciphertexts), so a restore's next
 * state needs no ciphertext kept in memory. A trashed one also has `trashed`: its trash time as
 * served and its element in a version 2 state's Trash (trashedElementOf), which binds that
 * time; null when the served time is not one (the entry then cannot match any v2 state).
 */
export interface EntryElement {
  id: string;
  revision: number;
  live: boolean;
  element: Uint8Array;
  trashed?: { at: number; element: Uint8Array } | null;
}

const text = (value: unknown): value is string => typeof value === 'string';
const textOrNull = (value: unknown): value is string | null | undefined => value === null || value === undefined || text(value);

/**
 * The entry's member exactly as served (the seven ciphertexts, id and revision), and whether
 * it is live; null when it is not an entry at all (no id, no whole revision, a field that is
 * not text). A malformed entry has no element: the sum then cannot match, which is right, since
 * the state the browser sealed never held it so.
 */
export function entryMemberOf(raw: unknown): { member: VaultEntryMember; live: boolean; trashedAt: number | null } | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const wire = raw as Record<string, unknown>;
  const id = wire.id ?? wire._id;
  const { revision, serviceName, username, password, url, notes, overview, details, deletedAt } = wire;
  if (!text(id) || id === '' || typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) return null;
  if (!text(serviceName) || !text(username) || !text(password)) return null;
  if (!textOrNull(url) || !textOrNull(notes) || !textOrNull(overview) || !textOrNull(details) || !textOrNull(deletedAt))
    return null;
  const member = writtenEntryMember({ id, serviceName, username, password, url, notes, overview, details }, revision);
  if (typeof deletedAt !== 'string') return { member, live: true, trashedAt: null };
  return { member, live: false, trashedAt: trashTimeOf(deletedAt) };
}

/** The element of one served entry (see EntryElement), or null when it is malformed. */
export async function entryElementOf(key: CryptoKey, raw: unknown): Promise<EntryElement | null> {
  const found = entryMemberOf(raw);
  if (!found) return null;
  const { member, live, trashedAt } = found;
  try {
    const element = await entryElement(key, live ? member : { ...member, revision: member.revision + 1 });
    if (live) return { id: member.id, revision: member.revision, live, element };
    const trashed = trashedAt === null ? null : await trashedElement(key, member, trashedAt);
    return { id: member.id, revision: member.revision, live, element, trashed };
  } catch {
    return null;
  }
}

async function trashedElement(key: CryptoKey, member: VaultEntryMember, at: number) {
  try {
    return { at, element: await trashedElementOf(key, member, at) };
  } catch {
    return null;
  }
}

/** Every served entry's element, in the order of `raw` (null where malformed). */
export function entryElementsOf(key: CryptoKey, raw: readonly unknown[]): Promise<(EntryElement | null)[]> {
  return Promise.all(raw.map((entry) => entryElementOf(key, entry)));
}

export const folderMemberOf = (wire: Pick<FolderWire, 'id' | 'revision' | 'name'>): VaultFolderMember => ({
  id: wire.id,
  revision: wire.revision,
  name: wire.name,
});

/** A folder's element; the folder list's schema already checked its shape. */
export async function folderElementsOf(key: CryptoKey, folders: readonly FolderWire[]): Promise<EntryElement[]> {
  return Promise.all(
    folders.map(async (folder) => ({
      id: folder.id,
      revision: folder.revision,
      live: true,
      element: await folderElement(key, folderMemberOf(folder)),
    })),
  );
}
