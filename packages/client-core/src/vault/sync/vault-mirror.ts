import type { EntryWire, FolderWire, VaultChangesWire } from '@lockit/contract';
import type { LiveMember, ServedLiveSet } from '../integrity/check-vault-state';
import { entryElementOf, folderElementsOf, type EntryElement } from '../integrity/vault-members';

type Changes = Extract<VaultChangesWire, { reset: false }>;

/** A loaded list a mirror can start from (VaultMirror.seeded). */
export interface MirrorSeed {
  /** The change cursor the list answer carried. */
  cursor: number;
  /** The vault state the list answer carried. */
  state: string | null;
  entries: readonly EntryWire[];
  folders: readonly FolderWire[];
}

/**
 * What a device holds of a vault as the server served it, by id: entry and folder wires
 * (ciphertexts only), the vault state they were served with and the change cursor they are at.
 * Changes are applied to a copy (`applied`): a catch-up that fails its check leaves the mirror
 * as it was. Elements (decision 0053) are kept per served wire object, so a catch-up computes
 * the elements of the members it changed only; the sum over all of them is O(n) additions.
 */
export class VaultMirror {
  readonly #elements: WeakMap<object, Promise<EntryElement | null>>;

  private constructor(
    readonly cursor: number,
    readonly state: string | null,
    readonly entries: ReadonlyMap<string, EntryWire>,
    readonly folders: ReadonlyMap<string, FolderWire>,
    elements: WeakMap<object, Promise<EntryElement | null>>,
  ) {
    this.#elements = elements;
  }

  /** A device that holds nothing yet: its first catch-up is a full read (cursor 0). */
  static empty(): VaultMirror {
    return new VaultMirror(0, null, new Map(), new Map(), new WeakMap());
  }

  /**
   * The mirror of a list a client loaded and checked whole (the list answer, its vault state
   * and change cursor, and the folders loaded beside it), so its first catch-up asks only what
   * changed after `cursor` instead of reading the vault again. Each catch-up checks the whole
   * mirror, so a seed that is not what the server holds is refused there like any answer.
   */
  static seeded(seed: {
    cursor: number;
    state: string | null;
    entries: readonly EntryWire[];
    folders: readonly FolderWire[];
  }): VaultMirror {
    return new VaultMirror(
      seed.cursor,
      seed.state,
      new Map(seed.entries.map((entry) => [entry.id, entry])),
      new Map(seed.folders.map((folder) => [folder.id, folder])),
      new WeakMap(),
    );
  }

  /** The mirror of a full read (`since` 0, or after a reset). */
  static fromFull(changes: Changes): VaultMirror {
    return VaultMirror.empty().applied(changes);
  }

  /**
   * A copy with `changes` applied: members deleted for good go first, then every member served
   * as changed replaces the one held (the server sends each as it is now, so a member deleted
   * and made again under its id comes back). The cursor and state become the answer's.
   */
  applied(changes: Changes): VaultMirror {
    const entries = new Map(this.entries);
    const folders = new Map(this.folders);
    for (const { id } of changes.purgedEntries) entries.delete(id);
    for (const { id } of changes.purgedFolders) folders.delete(id);
    for (const entry of changes.entries) entries.set(entry.id, entry);
    for (const folder of changes.folders) folders.set(folder.id, folder);
    return new VaultMirror(changes.cursor, changes.vaultState, entries, folders, this.#elements);
  }

  /** The served set as the whole-vault check takes it: live entries, entries in Trash, folders. */
  async liveSet(integrityKey: CryptoKey): Promise<ServedLiveSet> {
    const live = new Map<string, LiveMember>();
    const trashed = new Map<string, LiveMember>();
    const wires = [...this.entries.values()];
    const elements = await Promise.all(wires.map((wire) => this.#elementOf(integrityKey, wire)));
    wires.forEach((wire, index) => {
      const element = elements[index];
      // A malformed member still counts, with an element no state holds: the sum cannot match.
      if (!element) return live.set(wire.id, { revision: wire.revision, element: UNMATCHED_ELEMENT });
      if (element.live) return live.set(wire.id, { revision: element.revision, element: element.element });
      trashed.set(wire.id, { revision: element.revision, element: element.trashed?.element ?? UNMATCHED_ELEMENT });
    });
    const folderList = [...this.folders.values()];
    const folderElements = await folderElementsOf(integrityKey, folderList);
    const folders = new Map(folderElements.map((folder) => [folder.id, { revision: folder.revision, element: folder.element }]));
    return { entries: live, trashed, folders };
  }

  #elementOf(key: CryptoKey, wire: EntryWire): Promise<EntryElement | null> {
    let element = this.#elements.get(wire);
    if (!element) {
      element = entryElementOf(key, wire);
      this.#elements.set(wire, element);
    }
    return element;
  }
}

/** An element no member has: the sum of a set holding it never matches a state a browser sealed. */
const UNMATCHED_ELEMENT = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0));
