import {
  addElement,
  entryElement,
  folderElement,
  sealVaultState,
  subtractElement,
  sumFromState,
  trashedElementOf,
  trashedEntryElement,
  type SealedVaultState,
  type VaultEntryMember,
  type VaultFolderMember,
} from '@lockit/crypto';
import type { LiveMember } from './check-vault-state';

/**
 * What one write does to the vault's set (live entries, Trash, folders). Revisions are the ones
 * the server will give (base + 1; new: 1); trash times are the ones the write sends
 * (`x-lockit-trashed-at`), which the server stores as they are.
 */
export interface MemberChange {
  /** Moves to Trash: each live entry leaves the live set and enters Trash at revision + 1, since `trashedAt`. */
  trashEntries?: readonly { id: string; trashedAt: number }[];
  /** Deleted for good from Trash (by the person, or after the retention term). */
  purgeEntries?: readonly string[];
  /**
   * An import's undo, as the server does it: a live entry of these still at revision 1 is
   * deleted for good, one changed since goes to Trash since `trashedAt`, one in Trash stays.
   */
  undoImport?: { ids: readonly string[]; trashedAt: number };
  addEntries?: readonly { member: VaultEntryMember; name: string }[];
  /** An edit: a live entry's element is replaced; a trashed one's too, its trash time kept. */
  replaceEntries?: readonly { member: VaultEntryMember; name: string }[];
  /** Back from Trash, based on `revision` (the trashed one). */
  restoreEntries?: readonly { id: string; revision: number }[];
  removeFolders?: readonly string[];
  addFolders?: readonly { member: VaultFolderMember; name: string }[];
}

/** An entry in Trash as the set holds it: its element binds its trash time. */
export interface TrashedMember extends LiveMember {
  trashedAt: number;
}

/** The vault's set as a device tracks it between writes. */
export interface TrackedSet {
  entries: Map<string, LiveMember>;
  folders: Map<string, LiveMember>;
  /** Trash: authenticated under a version 2 state; under a version 1 one, as served (it did not cover Trash). */
  trashed: Map<string, TrashedMember>;
}

export interface NextState extends TrackedSet {
  state: SealedVaultState;
}

export const emptyTrackedSet = (): TrackedSet => ({ entries: new Map(), folders: new Map(), trashed: new Map() });

/** The change does not fit the set this device tracks (a member it does not hold, or holds already). */
export class OutOfStep extends Error {}

/**
 * The state after `change`, sealed at the next counter: O(1) per member changed (the old
 * element out of the sum, the new one in). Always a version 2 state: a version 1 state's sum
 * holds no Trash, so its tracked Trash is added. `restorable` holds the element each trashed
 * entry has once restored. Throws OutOfStep when the change names a member the set does not
 * hold as it says (another device changed it): the caller checks the vault again.
 */
export async function nextVaultState(
  integrityKey: CryptoKey,
  state: SealedVaultState,
  tracked: TrackedSet,
  restorable: ReadonlyMap<string, LiveMember>,
  change: MemberChange,
): Promise<NextState> {
  const entries = new Map(tracked.entries);
  const folders = new Map(tracked.folders);
  const trashed = new Map(tracked.trashed);
  let sum = sumFromState(state);
  if (state.trashed === undefined) for (const member of trashed.values()) sum = addElement(sum, member.element);
  const remove = <M extends LiveMember>(members: Map<string, M>, id: string): M => {
    const old = members.get(id);
    if (!old) throw new OutOfStep();
    sum = subtractElement(sum, old.element);
    members.delete(id);
    return old;
  };
  const add = <M extends LiveMember>(members: Map<string, M>, id: string, member: M) => {
    if (members.has(id)) throw new OutOfStep();
    sum = addElement(sum, member.element);
    members.set(id, member);
  };
  const toTrash = async (id: string, trashedAt: number) => {
    const old = remove(entries, id);
    const revision = old.revision + 1;
    const element = await trashedEntryElement(integrityKey, { id, revision, trashedAt }, old.element);
    add(trashed, id, { revision, trashedAt, element });
  };
  for (const { id, trashedAt } of change.trashEntries ?? []) await toTrash(id, trashedAt);
  for (const id of change.purgeEntries ?? []) remove(trashed, id);
  if (change.undoImport) {
    const { ids, trashedAt } = change.undoImport;
    for (const id of ids) {
      const live = entries.get(id);
      if (live === undefined) continue;
      if (live.revision === 1) remove(entries, id);
      else await toTrash(id, trashedAt);
    }
  }
  for (const id of change.removeFolders ?? []) remove(folders, id);
  for (const { id, revision } of change.restoreEntries ?? []) {
    const element = restorable.get(id);
    if (element?.revision !== revision || trashed.get(id)?.revision !== revision) throw new OutOfStep();
    remove(trashed, id);
    add(entries, id, { revision: revision + 1, element: element.element });
  }
  for (const { member } of change.replaceEntries ?? []) {
    if (entries.has(member.id)) {
      remove(entries, member.id);
      add(entries, member.id, { revision: member.revision, element: await entryElement(integrityKey, member) });
      continue;
    }
    const inTrash = trashed.get(member.id);
    if (inTrash === undefined) continue;
    remove(trashed, member.id);
    const element = await trashedElementOf(integrityKey, member, inTrash.trashedAt);
    add(trashed, member.id, { revision: member.revision, trashedAt: inTrash.trashedAt, element });
  }
  for (const { member } of change.addEntries ?? [])
    add(entries, member.id, { revision: member.revision, element: await entryElement(integrityKey, member) });
  for (const { member } of change.addFolders ?? [])
    add(folders, member.id, { revision: member.revision, element: await folderElement(integrityKey, member) });
  const sealed = await sealVaultState(integrityKey, {
    counter: state.counter + 1,
    entries: entries.size,
    trashed: trashed.size,
    folders: folders.size,
    sum,
  });
  return { state: sealed, entries, folders, trashed };
}

/** The names a change gives (added and edited entries, added folders), for the manifest. */
export function namesOf(change: MemberChange): { id: string; name: string }[] {
  const named = [...(change.addEntries ?? []), ...(change.replaceEntries ?? []), ...(change.addFolders ?? [])];
  return named.map(({ member, name }) => ({ id: member.id, name }));
}
