import { apiPaths, VAULT_STATE_HEADER } from '@lockit/contract';
import type { ApiClient, AnswerSchema } from '../../http/api-client';
import { openFolder } from '../folders/folder-name';
import { openEntry } from '../open-entries';
import type { LiveMember } from './check-vault-state';
import { emptyTrackedSet, type TrackedSet } from './member-change';
import { entryElementsOf, folderElementsOf, type EntryElement } from './vault-members';

/** The vault as served: its state header and every member's element (see vault-members.ts). */
export interface VaultSnapshot {
  state: string | null;
  /** Live and trashed entries (a trashed one's element is the one a restore gives it). */
  entries: readonly EntryElement[];
  folders: readonly EntryElement[];
  /** Entry and folder names by id, for the manifest; an unknown one is named by nothing. */
  names: ReadonlyMap<string, string>;
  /**
   * The folders call failed: `folders` is empty. A served state is still checked against it
   * (failing the call cannot skip the check), but no first state is made from it.
   */
  foldersUnknown?: boolean;
}

/**
 * The list's envelope only: each entry is checked against the contract while it is opened, so
 * one malformed entry is one damaged (and, here, one element that matches no state) instead of
 * an answer refused whole. The route table's schema checks every entry; this is why the list
 * goes by path.
 */
const listEnvelope: AnswerSchema<unknown[]> = {
  safeParse(body: unknown) {
    if (typeof body !== 'object' || body === null) return { success: false };
    const { message, data } = body as Record<string, unknown>;
    if (typeof message !== 'string' || !Array.isArray(data)) return { success: false };
    return { success: true, data: data as unknown[] };
  },
};

/** GET the entries (Trash included) as served, with the vault state header they came with (null: none). */
export async function fetchServedEntries(api: ApiClient): Promise<{ list: unknown[]; state: string | null }> {
  const answer = await api.request(apiPaths.listEntries, { method: 'GET', schema: listEnvelope, protectedCall: true });
  return { list: answer.body, state: answer.headers.get(VAULT_STATE_HEADER) };
}

/**
 * The vault as the server serves it now, for a check: the list and the folders fetched, every
 * member's element computed, nothing decrypted but the names `knownNames` lacks (entries and
 * folders made elsewhere), which only the manifest needs.
 */
export async function loadVaultSnapshot(
  api: ApiClient,
  integrityKey: CryptoKey,
  vaultKey: CryptoKey,
  knownNames: ReadonlyMap<string, string> = new Map(),
): Promise<VaultSnapshot> {
  const [served, folders] = await Promise.all([fetchServedEntries(api), api.call('list-folders', {})]);
  const raw = served.list;
  const [entries, folderElements] = await Promise.all([
    entryElementsOf(integrityKey, raw),
    folderElementsOf(integrityKey, folders.data),
  ]);
  const names = new Map<string, string>();
  await Promise.all([
    ...raw.map(async (wire, i) => {
      const id = entries[i]?.id;
      if (id === undefined) return;
      const known = knownNames.get(id);
      if (known !== undefined) return void names.set(id, known);
      const opened = await openEntry(vaultKey, wire);
      if (opened?.status === 'open') names.set(id, opened.serviceName);
    }),
    ...folders.data.map(async (wire) => {
      const known = knownNames.get(wire.id);
      if (known !== undefined) return void names.set(wire.id, known);
      const opened = await openFolder(vaultKey, wire);
      if (opened) names.set(wire.id, opened.name);
    }),
  ]);
  return {
    state: served.state,
    entries: entries.filter((element): element is EntryElement => element !== null),
    folders: folderElements,
    names,
  };
}

/** An element no member has: the sum of a set holding it never matches a state a browser sealed. */
const UNMATCHED_ELEMENT = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0));

/**
 * The set as served. An entry in Trash whose served time is not one (no element) still counts,
 * with an element no state holds, so a server cannot slip an entry into Trash past the check
 * by serving it a malformed time.
 */
export function trackedSetOf(snapshot: VaultSnapshot): TrackedSet {
  const tracked = emptyTrackedSet();
  for (const entry of snapshot.entries) {
    if (entry.live) tracked.entries.set(entry.id, entry);
    else if (entry.trashed)
      tracked.trashed.set(entry.id, { revision: entry.revision, trashedAt: entry.trashed.at, element: entry.trashed.element });
    else tracked.trashed.set(entry.id, { revision: entry.revision, trashedAt: Number.NaN, element: UNMATCHED_ELEMENT });
  }
  for (const folder of snapshot.folders) tracked.folders.set(folder.id, folder as LiveMember);
  return tracked;
}
