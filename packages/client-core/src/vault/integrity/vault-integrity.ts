import { formatVaultState, parseVaultState, type VaultStateParts } from '@lockit/contract';
import { entryElement, sealVaultState, sumOfElements, type SealedVaultState, type VaultEntryMember } from '@lockit/crypto';
import type { AccountRef } from '../../device-memory/account-ref';
import type { DeviceMemory } from '../../device-memory/device-memory';
import type { ApiClient } from '../../http/api-client';
import { SILENT_LOG, type CoreLog } from '../../platform/core-log';
import { checkVaultState, type IntegrityReport, type LiveMember } from './check-vault-state';
import {
  emptyTrackedSet,
  namesOf,
  nextVaultState,
  OutOfStep,
  type MemberChange,
  type NextState,
  type TrackedSet,
} from './member-change';
import { loadVaultManifest, saveVaultManifest, type VaultManifest } from './vault-manifest';
import { trackedSetOf, type VaultSnapshot } from './vault-snapshot';
import { isVaultStateRefusal } from './vault-state-answers';

export const INTEGRITY_REFUSED = 'Lockit will not save changes on top of a vault the server changed behind your back.';

/** A write refused here: the last check found the server's copy older or incomplete. Nothing was sent. */
export class VaultIntegrityRefusedError extends Error {
  override readonly name = 'VaultIntegrityRefusedError';
  constructor() {
    super(INTEGRITY_REFUSED);
  }
}

/** The most a write is sent when the server says another device wrote first. */
export const MAX_WRITE_TRIES = 3;
/** The manifest is written once a burst of writes has settled. */
export const MANIFEST_DELAY_MS = 500;

type Status = 'unchecked' | 'checked' | 'none' | 'failed';

/** What a device's integrity tracker needs of its platform. */
export interface VaultIntegrityPlatform {
  api: ApiClient;
  /** This device's anti-rollback memory: its counter and sealed manifest per account. */
  memory: DeviceMemory;
  /** Fetches the vault as served now (loadVaultSnapshot over `api`, or the platform's own). */
  load: (knownNames: ReadonlyMap<string, string>) => Promise<VaultSnapshot>;
  log?: CoreLog;
}

/**
 * A device's whole-vault integrity (decisions 0053, 0061): the state the vault is at, each
 * member's element, live and in Trash (so a write's next state is O(1): the old element out,
 * the new one in), and the queue every write of the device goes through.
 *
 * Security invariants:
 * - Nothing is written after a failed check: every write is refused (VaultIntegrityRefusedError)
 *   before anything is sent, until the vault is opened again.
 * - A write carries the state after it, sealed under the integrity key, its counter one above
 *   the current one; the server stores it only if it holds the current one, so writers on
 *   several devices are serialised. A refusal (another device wrote first) makes this device
 *   fetch and check the vault again before it recomputes and resends, at most MAX_WRITE_TRIES times.
 * - The counter this device remembers only rises, after a check passed or a write it sealed
 *   was accepted.
 * - Without a state on the server (a vault no current client opened, or a server that refused
 *   the first one) writes go without one, as the server allows only while it holds none.
 * - Every state this device seals is version 2 (Trash counted, each trashed entry's trash time
 *   under the key). A version 1 state is accepted at a check; the next write replaces it, its
 *   Trash taken as the check was served it (a v1 state never covered Trash, so nothing the
 *   server could do to Trash before is newly allowed).
 */
export class VaultIntegrity {
  #status: Status = 'unchecked';
  #state: SealedVaultState | null = null;
  /** A newer state a live catch-up checked (VaultSync), for verifiedState only. */
  #caughtUp: VaultStateParts | null = null;
  #tracked: TrackedSet = emptyTrackedSet();
  /** Trashed entries: the element each would have once restored, at the revision it is trashed at. */
  readonly #restorable = new Map<string, LiveMember>();
  readonly #names = new Map<string, string>();
  #report: IntegrityReport | null = null;
  /** A write landed without a state (the vault had none): a list fetched before it is out of date. */
  #wroteWithoutState = false;
  #queue: Promise<unknown> = Promise.resolve();
  #manifestTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #log: CoreLog;

  constructor(
    readonly integrityKey: CryptoKey,
    private readonly vaultKey: CryptoKey,
    /** This device's ref of the account (from the typed name): where its counter and manifest are kept. */
    private readonly account: AccountRef,
    private readonly platform: VaultIntegrityPlatform,
  ) {
    this.#log = platform.log ?? SILENT_LOG;
  }

  /** What the last check found wrong; null while all is well (or not checked yet). */
  get report(): IntegrityReport | null {
    return this.#report;
  }

  /**
   * The newest vault state this device verified, formatted: the last passed check's or accepted
   * write's, or a newer one a live catch-up checked (noteCaughtUp). Null before any. A check that
   * fails later leaves it as it was: it is still what this device last verified, which is what
   * the person compares with another device (the alert says what is wrong now).
   */
  get verifiedState(): string | null {
    if (this.#state === null) return null;
    const caughtUp = this.#caughtUp;
    return caughtUp !== null && caughtUp.counter > this.#state.counter
      ? formatVaultState(caughtUp)
      : formatVaultState(this.#state);
  }

  /**
   * A live catch-up (VaultSync) passed its whole-vault check at `state`: it becomes the verified
   * state shown when it is newer. Writes still start from the last state this object checked
   * (a newer one makes them check again first), so nothing here changes what is sent.
   */
  noteCaughtUp(state: string): void {
    const parts = parseVaultState(state);
    if (!parts || (this.#caughtUp !== null && parts.counter <= this.#caughtUp.counter)) return;
    this.#caughtUp = parts;
    this.#emit();
  }

  /** True once a check passed or a write this device sealed was accepted, until a check fails. */
  get checked(): boolean {
    return this.#status === 'checked';
  }

  /**
   * The entries in Trash since before `cutoff` (ms) by the vault's last passed check or write,
   * with the revision a purge names; none unless the vault is checked. Under a version 2 state
   * the times are the ones this device sealed, so a server cannot make them look older.
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
   * may have raced the two fetches) before it reports. Never rejects; `report` says what failed.
   */
  check(snapshot: VaultSnapshot): Promise<void> {
    // In the queue: a write waits for the check, and a check never runs in the middle of a write.
    const run = this.#queue.then(() => this.#checkSnapshot(snapshot, true));
    this.#queue = run.catch(() => undefined);
    return run.catch((error: unknown) => this.#log.failure('Checking the vault', error));
  }

  /**
   * Sends one write that changes the vault's set, in this device's queue: `change` says what it
   * does to the set (asked again on each try, after a fresh check), `send` sends it with the
   * state after it (undefined: the vault has no state). Resolves with what `send` resolved.
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
    const { serviceName, username, password, url, notes, overview, details } = wire;
    const member: VaultEntryMember = {
      ...{ serviceName, username, password, url, notes, overview, details },
      id: wire.id,
      revision: wire.revision + 1,
    };
    try {
      this.#restorable.set(wire.id, { revision: wire.revision, element: await entryElement(this.integrityKey, member) });
    } catch {
      this.#restorable.delete(wire.id);
    }
  }

  /**
   * The person chose to take the server's older copy of the vault (an operator restored a
   * backup): this device's counter goes down to the one the report showed, and the vault is
   * checked again against it. Nothing happens unless the last check found the served vault whole
   * and only older (`report.olderButWhole`); a server that serves anything else meanwhile is
   * reported again.
   */
  acceptServedCopy(): Promise<void> {
    const run = this.#queue.then(async () => {
      const report = this.#report;
      if (this.#status !== 'failed' || !report?.olderButWhole) return;
      await this.platform.memory.acceptOlderVault(this.account, report.counters.served ?? 0);
      // What this device saw of the newer copy is not the vault any more.
      this.#state = null;
      this.#tracked = emptyTrackedSet();
      this.#status = 'unchecked';
      this.#report = null;
      await this.#checkSnapshot(await this.platform.load(this.#names), true);
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
        if (this.#status === 'checked') {
          const asked = change();
          next = await nextVaultState(this.integrityKey, this.#state!, this.#tracked, this.#restorable, asked);
          for (const { id, name } of namesOf(asked)) this.#names.set(id, name);
        }
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
        this.#log.info('Vault', 'the vault changed elsewhere; it is checked again before the change is sent on top.');
        await this.#checkSnapshot(await this.platform.load(this.#names), true);
      }
    }
  }

  /**
   * Before a write in a vault not checked yet (the list still loading, or a client without it):
   * where this device saw a state for the account, the vault is fetched and checked first.
   * Where it never did, the write goes without a state, as before this check existed (adding
   * while the list loads keeps working): the server takes it only while it holds no state
   * (else 428, and the write is checked and sent again), and the first state is then made
   * from the vault fetched after it.
   */
  async #ready(): Promise<void> {
    if (this.#status !== 'unchecked' || (await this.platform.memory.vaultCounter(this.account)) === 0) return;
    await this.#checkSnapshot(await this.platform.load(this.#names), true);
  }

  async #checkSnapshot(snapshot: VaultSnapshot, mayRefetch: boolean): Promise<void> {
    const tracked = trackedSetOf(snapshot);
    const memory = this.platform.memory;
    const remembered = await memory.vaultCounter(this.account);
    let result = await checkVaultState(this.integrityKey, snapshot.state, tracked, remembered, null);
    if (!result.ok && mayRefetch) {
      // A failed refetch does not clear the mismatch: the vault as served is what is reported.
      const again = await this.platform.load(snapshot.names).catch(() => null);
      if (again) return this.#checkSnapshot(again, false);
    }
    if (!result.ok) {
      // Only now the manifest is opened: it names what is wrong, it never decides whether.
      // What this device saw last is newer than the stored one until the debounced save ran.
      const stored = await loadVaultManifest(memory, this.vaultKey, this.account);
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

  /** A vault with no state, and this device never saw one: the first state, from what was served. */
  async #makeFirst(served: TrackedSet, mayRefetch: boolean): Promise<void> {
    let tracked = served;
    if (this.#wroteWithoutState) {
      tracked = trackedSetOf(await this.platform.load(this.#names));
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
      await this.platform.api.call('put-vault-state', { body: { state: formatVaultState(state) } });
    } catch (error) {
      // Another device made it first: check the vault with it.
      if (isVaultStateRefusal(error) && mayRefetch) return this.#checkSnapshot(await this.platform.load(this.#names), false);
      this.#log.failure('Protecting the vault with an integrity check', error);
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
    this.#report = null;
    // Always: the verified state changed too.
    this.#emit();
    await this.platform.memory.rememberVaultCounter(this.account, next.state.counter);
    this.#scheduleManifest();
  }

  #scheduleManifest(): void {
    clearTimeout(this.#manifestTimer);
    this.#manifestTimer = setTimeout(() => {
      const manifest = this.#seenManifest();
      if (manifest === null) return;
      saveVaultManifest(this.platform.memory, this.vaultKey, this.account, manifest).catch((error: unknown) =>
        this.#log.failure('Remembering the vault', error),
      );
    }, MANIFEST_DELAY_MS);
  }

  /** The set at the last state this device checked or wrote, named (Trash where the state covers it); null before any. */
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

/** `send` through `integrity`'s queue with the state after `change`; without one (locked), as it is. */
export function writeThrough<T>(
  integrity: VaultIntegrity | null | undefined,
  change: () => MemberChange,
  send: (state: string | undefined) => Promise<T>,
): Promise<T> {
  return integrity ? integrity.write(change, send) : send(undefined);
}
