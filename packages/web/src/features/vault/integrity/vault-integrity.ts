import type { AccountRef } from '@lockit/client-core';
import { formatVaultState } from '@lockit/contract';
import {
  addElement,
  entryElement,
  folderElement,
  sealVaultState,
  subtractElement,
  sumFromState,
  sumOfElements,
  trashedElementOf,
  trashedEntryElement,
  type SealedVaultState,
  type VaultEntryMember,
  type VaultFolderMember,
} from '@lockit/crypto';
import { logFailure, logInfo } from '@/lib/log';
import { checkVaultState, type IntegrityReport, type LiveMember } from '@lockit/client-core';
import { deviceMemory } from '@/lib/device-memory';
import { loadVaultManifest, saveVaultManifest, type VaultManifest } from '@lockit/client-core';
import type { EntryElement } from '@lockit/client-core';
import { initVaultState, isVaultStateRefusal } from './vault-state-api';

export const INTEGRITY_REFUSED = 'Lockit will not save changes on top of a vault the server changed behind your back.';

/** A write refused here: the last check found the server's copy older or incomplete. Nothing was sent. */
export class VaultIntegrityRefusedError extends Error {
  override readonly name = 'VaultIntegrityRefusedError';
  constructor() {
    super(INTEGRITY_REFUSED);
  }
}

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
interface TrashedMember extends LiveMember {
  trashedAt: number;
}

interface Tracked {
  entries: Map<string, LiveMember>;
  folders: Map<string, LiveMember>;
  /** Trash: authenticated under a version 2 state; under a version 1 one, as served (it did not cover Trash). */
  trashed: Map<string, TrashedMember>;
}

interface NextState extends Tracked {
  state: SealedVaultState;
}

/** The most a write is sent when the server says another device wrote first. */
export const MAX_WRITE_TRIES = 3;
/** The manifest is written once a burst of writes has settled. */
export const MANIFEST_DELAY_MS = 500;

class OutOfStep extends Error {}

type Status = 'unchecked' | 'checked' | 'none' | 'failed';

/**
 * This tab's whole-vault integrity (decisions 0053, 0061): the state the vault is at, each
 * member's element, live and in Trash (so a write's next state is O(1): the old element out,
 * the new one in), and the queue every write of the tab goes through.
 *
 * Security invariants:
 * - Nothing is written after a failed check: every write is refused (VaultIntegrityRefusedError)
 *   before anything is sent, until the vault is opened again.
 * - A write carries the state after it, sealed under the integrity key, its counter one above
 *   the current one; the server stores it only if it holds the current one, so writers on
 *   several devices are serialised. A refusal (another device wrote first) makes this tab fetch
 *   and check the vault again before it recomputes and resends, at most MAX_WRITE_TRIES times.
 * - The counter this browser remembers only rises, after a check passed or a write it sealed
 *   was accepted.
 * - Without a state on the server (a vault no current browser opened, or a server that refused
 *   the first one) writes go without one, as the server allows only while it holds none.
 * - Every state this tab seals is version 2 (Trash counted, each trashed entry's trash time
 *   under the key). A version 1 state is accepted at a check; the next write replaces it, its
 *   Trash taken as the check was served it (a v1 state never covered Trash, so nothing the
 *   server could do to Trash before is newly allowed).
 */
export class VaultIntegrity {
  #status: Status = 'unchecked';
  #state: SealedVaultState | null = null;
  #tracked: Tracked = emptyTracked();
  /** Trashed entries: the element each would have once restored, at the revision it is trashed at. */
  readonly #restorable = new Map<string, LiveMember>();
  readonly #names = new Map<string, string>();
  #report: IntegrityReport | null = null;
  /** A write landed without a state (the vault had none): a list fetched before it is out of date. */
  #wroteWithoutState = false;
  #queue: Promise<unknown> = Promise.resolve();
  #manifestTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(
    readonly integrityKey: CryptoKey,
    private readonly vaultKey: CryptoKey,
    /** This browser's ref of the account (from the typed name): where its counter and manifest are kept. */
    private readonly account: AccountRef,
    private readonly load: (knownNames: ReadonlyMap<string, string>) => Promise<VaultSnapshot>,
  ) {}

  /** What the last check found wrong; null while all is well (or not checked yet). */
  get report(): IntegrityReport | null {
    return this.#report;
  }

  /**
   * The entries in Trash since before `cutoff` (ms) by the vault's last passed check or write,
   * with the revision a purge names; none unless the vault is checked. Under a version 2 state
   * the times are the ones this browser sealed, so a server cannot make them look older.
   */
  trashedBefore(cutoff: number): { id: string; revision: number }[] {
    if (this.#status !== 'checked') return [];
    const found: { id: string; revision: number }[] = [];
    for (const [id, { revision, trashedAt }] of this.#tracked.trashed) if (trashedAt < cutoff) found.push({ id, revision });
    return found;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /**
   * Checks the vault as the screen just loaded it; on a mismatch fetches it once more (a write
   * may have raced the two fetches) before it reports. Never rejects.
   */
  check(snapshot: VaultSnapshot): Promise<void> {
    // In the queue: a write waits for the check, and a check never runs in the middle of a write.
    const run = this.#queue.then(() => this.#checkSnapshot(snapshot, true));
    this.#queue = run.catch(() => undefined);
    return run.catch((error: unknown) => logFailure('Checking the vault', error));
  }

  /**
   * Sends one write that changes the live set, in this tab's queue: `change` says what it does
   * to the set (asked again on each try, after a fresh check), `send` sends it with the state
   * after it (undefined: the vault has no state). Resolves with what `send` resolved.
   */
  write<T>(change: () => MemberChange, send: (state: string | undefined) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#write(change, send));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Notes an entry as the server answered it (any write's answer, a conflict's current
   * version): a trashed one's restore element is kept, so a later restore is O(1).
   */
  async noteEntry(
    wire: { id: string; revision: number; deletedAt: string | null } & Omit<VaultEntryMember, 'id' | 'revision'>,
    name?: string,
  ): Promise<void> {
    if (name !== undefined) this.#names.set(wire.id, name);
    if (wire.deletedAt === null) {
      this.#restorable.delete(wire.id);
      return;
    }
    const member: VaultEntryMember = { ...memberFields(wire), id: wire.id, revision: wire.revision + 1 };
    try {
      this.#restorable.set(wire.id, { revision: wire.revision, element: await entryElement(this.integrityKey, member) });
    } catch {
      this.#restorable.delete(wire.id);
    }
  }

  /**
   * The person chose to take the server's older copy of the vault (an operator restored a
   * backup): this browser's counter goes down to the one the report showed, and the vault is
   * checked again against it. Nothing happens unless the last check found the served vault whole
   * and only older (`report.olderButWhole`); a server that serves anything else meanwhile is
   * reported again.
   */
  acceptServedCopy(): Promise<void> {
    const run = this.#queue.then(async () => {
      const report = this.#report;
      if (this.#status !== 'failed' || !report?.olderButWhole) return;
      await deviceMemory.acceptOlderVault(this.account, report.counters.served ?? 0);
      // What this tab saw of the newer copy is not the vault any more.
      this.#state = null;
      this.#tracked = emptyTracked();
      this.#status = 'unchecked';
      this.#report = null;
      await this.#checkSnapshot(await this.load(this.#names), true);
      this.#emit();
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #write<T>(change: () => MemberChange, send: (state: string | undefined) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      await this.#ready();
      if (this.#status === 'failed') throw new VaultIntegrityRefusedError();
      let next: NextState | null = null;
      try {
        if (this.#status === 'checked') next = await this.#next(change());
        const result = await send(next ? formatVaultState(next.state) : undefined);
        if (next) await this.#adopt(next);
        else this.#wroteWithoutState = true;
        return result;
      } catch (error) {
        const retry = error instanceof OutOfStep || isVaultStateRefusal(error);
        if (!retry || attempt >= MAX_WRITE_TRIES) {
          if (error instanceof OutOfStep) throw new Error('The vault changed elsewhere; reload Lockit and try again.');
          throw error;
        }
        logInfo('Vault', 'the vault changed elsewhere; it is checked again before the change is sent on top.');
        await this.#checkSnapshot(await this.load(this.#names), true);
      }
    }
  }

  /**
   * Before a write in a vault not checked yet (the list still loading, or a page without it):
   * where this browser saw a state for the account, the vault is fetched and checked first.
   * Where it never did, the write goes without a state, as before this check existed (adding
   * while the list loads keeps working): the server takes it only while it holds no state
   * (else 428, and the write is checked and sent again), and the first state is then made
   * from the vault fetched after it.
   */
  async #ready(): Promise<void> {
    if (this.#status !== 'unchecked' || (await deviceMemory.vaultCounter(this.account)) === 0) return;
    await this.#checkSnapshot(await this.load(this.#names), true);
  }

  async #next(change: MemberChange): Promise<NextState> {
    const state = this.#state!;
    const entries = new Map(this.#tracked.entries);
    const folders = new Map(this.#tracked.folders);
    const trashed = new Map(this.#tracked.trashed);
    let sum = sumFromState(state);
    // A version 1 state's sum holds no Trash: the version 2 state after this write does.
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
      const element = await trashedEntryElement(this.integrityKey, { id, revision, trashedAt }, old.element);
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
      const restorable = this.#restorable.get(id);
      if (restorable?.revision !== revision || trashed.get(id)?.revision !== revision) throw new OutOfStep();
      remove(trashed, id);
      add(entries, id, { revision: revision + 1, element: restorable.element });
    }
    for (const { member } of change.replaceEntries ?? []) {
      if (entries.has(member.id)) {
        remove(entries, member.id);
        add(entries, member.id, { revision: member.revision, element: await entryElement(this.integrityKey, member) });
        continue;
      }
      const inTrash = trashed.get(member.id);
      if (inTrash === undefined) continue;
      remove(trashed, member.id);
      const element = await trashedElementOf(this.integrityKey, member, inTrash.trashedAt);
      add(trashed, member.id, { revision: member.revision, trashedAt: inTrash.trashedAt, element });
    }
    for (const { member } of change.addEntries ?? [])
      add(entries, member.id, { revision: member.revision, element: await entryElement(this.integrityKey, member) });
    for (const { member } of change.addFolders ?? [])
      add(folders, member.id, { revision: member.revision, element: await folderElement(this.integrityKey, member) });
    const named = [...(change.addEntries ?? []), ...(change.replaceEntries ?? []), ...(change.addFolders ?? [])];
    for (const { member, name } of named) this.#names.set(member.id, name);
    const sealed = await sealVaultState(this.integrityKey, {
      counter: state.counter + 1,
      entries: entries.size,
      trashed: trashed.size,
      folders: folders.size,
      sum,
    });
    return { state: sealed, entries, folders, trashed };
  }

  async #checkSnapshot(snapshot: VaultSnapshot, mayRefetch: boolean): Promise<void> {
    const tracked = trackedOf(snapshot);
    const remembered = await deviceMemory.vaultCounter(this.account);
    let result = await checkVaultState(this.integrityKey, snapshot.state, tracked, remembered, null);
    if (!result.ok && mayRefetch) {
      // A failed refetch does not clear the mismatch: the vault as served is what is reported.
      const again = await this.load(snapshot.names).catch(() => null);
      if (again) return this.#checkSnapshot(again, false);
    }
    if (!result.ok) {
      // Only now the manifest is opened: it names what is wrong, it never decides whether.
      // What this tab saw last is newer than the stored one until the debounced save ran.
      const stored = await loadVaultManifest(deviceMemory, this.vaultKey, this.account);
      const seen = this.#seenManifest();
      const manifest = seen && (!stored || seen.counter >= stored.counter) ? seen : stored;
      if (manifest) result = await checkVaultState(this.integrityKey, snapshot.state, tracked, remembered, manifest);
    }
    for (const [id, name] of snapshot.names) this.#names.set(id, name);
    this.#restorable.clear();
    for (const entry of snapshot.entries) if (!entry.live) this.#restorable.set(entry.id, entry);
    if (!result.ok) {
      this.#status = 'failed';
      this.#report = result.report;
      this.#emit();
      return;
    }
    if (result.state) return this.#adopt({ state: result.state, ...tracked });
    if (snapshot.foldersUnknown) return;
    await this.#makeFirst(tracked, mayRefetch);
  }

  /** A vault with no state, and this browser never saw one: the first state, from what was served. */
  async #makeFirst(served: Tracked, mayRefetch: boolean): Promise<void> {
    let tracked = served;
    if (this.#wroteWithoutState) {
      tracked = trackedOf(await this.load(this.#names));
      this.#wroteWithoutState = false;
    }
    const members = [...tracked.entries.values(), ...tracked.trashed.values(), ...tracked.folders.values()];
    const state = await sealVaultState(this.integrityKey, {
      counter: 1,
      entries: tracked.entries.size,
      trashed: tracked.trashed.size,
      folders: tracked.folders.size,
      sum: sumOfElements(members.map((member) => member.element)),
    });
    try {
      await initVaultState(formatVaultState(state));
    } catch (error) {
      // Another device made it first: check the vault with it.
      if (isVaultStateRefusal(error) && mayRefetch) return this.#checkSnapshot(await this.load(this.#names), false);
      logFailure('Protecting the vault with an integrity check', error);
      this.#status = 'none';
      this.#tracked = tracked;
      return;
    }
    await this.#adopt({ state, ...tracked });
  }

  async #adopt(next: NextState): Promise<void> {
    this.#status = 'checked';
    this.#state = next.state;
    this.#tracked = { entries: next.entries, folders: next.folders, trashed: next.trashed };
    if (this.#report !== null) {
      this.#report = null;
      this.#emit();
    }
    await deviceMemory.rememberVaultCounter(this.account, next.state.counter);
    this.#scheduleManifest();
  }

  #scheduleManifest(): void {
    clearTimeout(this.#manifestTimer);
    this.#manifestTimer = setTimeout(() => {
      const manifest = this.#seenManifest();
      if (manifest === null) return;
      saveVaultManifest(deviceMemory, this.vaultKey, this.account, manifest).catch((error: unknown) =>
        logFailure('Remembering the vault', error),
      );
    }, MANIFEST_DELAY_MS);
  }

  /** The set at the last state this tab checked or wrote, named (Trash where the state covers it); null before any. */
  #seenManifest(): VaultManifest | null {
    if (this.#state === null) return null;
    const named = (members: Map<string, LiveMember>) =>
      [...members].map(([id, { revision }]) => ({ id, revision, name: this.#names.get(id) ?? '' }));
    const manifest = {
      counter: this.#state.counter,
      entries: named(this.#tracked.entries),
      folders: named(this.#tracked.folders),
    };
    return this.#state.trashed === undefined ? manifest : { ...manifest, trashed: named(this.#tracked.trashed) };
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

const emptyTracked = (): Tracked => ({ entries: new Map(), folders: new Map(), trashed: new Map() });

/**
 * The set as served. An entry in Trash whose served time is not one (no element) still counts,
 * with an element no state holds, so a server cannot slip an entry into Trash past the check
 * by serving it a malformed time.
 */
function trackedOf(snapshot: VaultSnapshot): Tracked {
  const entries = new Map<string, LiveMember>();
  const trashed = new Map<string, TrashedMember>();
  for (const entry of snapshot.entries) {
    if (entry.live) entries.set(entry.id, entry);
    else if (entry.trashed)
      trashed.set(entry.id, { revision: entry.revision, trashedAt: entry.trashed.at, element: entry.trashed.element });
    else trashed.set(entry.id, { revision: entry.revision, trashedAt: Number.NaN, element: UNMATCHED_ELEMENT });
  }
  return { entries, folders: new Map(snapshot.folders.map((folder) => [folder.id, folder])), trashed };
}

/** An element no member has: the sum of a set holding it never matches a state a browser sealed. */
const UNMATCHED_ELEMENT = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0));

function memberFields(wire: Omit<VaultEntryMember, 'id' | 'revision'>): Omit<VaultEntryMember, 'id' | 'revision'> {
  const { serviceName, username, password, url, notes, overview, details } = wire;
  return { serviceName, username, password, url, notes, overview, details };
}

/** `send` through `integrity`'s queue with the state after `change`; without one (locked), as it is. */
export function writeThrough<T>(
  integrity: VaultIntegrity | null | undefined,
  change: () => MemberChange,
  send: (state: string | undefined) => Promise<T>,
): Promise<T> {
  return integrity ? integrity.write(change, send) : send(undefined);
}
