import { parseVaultState } from '@lockit/contract';
import type { AccountRef } from '../../device-memory/account-ref';
import type { DeviceMemory } from '../../device-memory/device-memory';
import type { ApiClient } from '../../http/api-client';
import { UnexpectedResponseError } from '../../http/api-errors';
import { checkVaultState, type IntegrityReport } from '../integrity/check-vault-state';
import { loadVaultManifest } from '../integrity/vault-manifest';
import { changesSince } from './changes-since';
import { VaultMirror } from './vault-mirror';

export interface VaultSyncOptions {
  api: Pick<ApiClient, 'call'>;
  vaultKey: CryptoKey;
  integrityKey: CryptoKey;
  /** This device's anti-rollback memory, and the account it is kept under. */
  memory: DeviceMemory;
  account: AccountRef;
}

/** What one catch-up changed: ids of the members served as changed, and of those deleted for good. */
export interface CaughtUp {
  ok: true;
  mirror: VaultMirror;
  /** The cursor was not answerable (too old, a key rotation): the vault was read whole. */
  reloaded: boolean;
  changed: { entries: string[]; folders: string[]; purgedEntries: string[]; purgedFolders: string[] };
}

/** The served vault failed the whole-vault check: the mirror is kept as it was. */
export interface CatchUpRefused {
  ok: false;
  report: IntegrityReport;
}

/**
 * One device's copy of a vault, kept current through the change cursor (decision 0066).
 *
 * Security invariants: every catch-up ends in the same whole-vault check as a full load
 * (checkVaultState against the state sealed under this vault's integrity key, and the highest
 * counter this device remembers), over the WHOLE mirror with the changes applied, never over
 * the changes alone. So a server that withholds a change (the sum misses it), resurrects an
 * entry deleted for good (one member too many) or serves an older state (a lower counter) is
 * refused, and the mirror stays as it was; only a passing catch-up advances the mirror and the
 * remembered counter. A reset answer only makes the device read the vault whole, which is
 * checked the same way: it can cost bytes, never trust.
 */
export class VaultSync {
  #mirror = VaultMirror.empty();
  #running: Promise<CaughtUp | CatchUpRefused> | null = null;
  #queued: Promise<CaughtUp | CatchUpRefused> | null = null;

  constructor(private readonly options: VaultSyncOptions) {}

  get mirror(): VaultMirror {
    return this.#mirror;
  }

  /**
   * Starts from a list the client loaded and checked (VaultMirror.seeded) instead of an empty
   * mirror, before the first catch-up: that catch-up then reads only the changes after the
   * seed's cursor. Ignored once the mirror holds anything, so it never moves a mirror back.
   */
  seed(mirror: VaultMirror): void {
    if (this.#mirror.cursor !== 0 || this.#running || this.#mirror.entries.size > 0) return;
    this.#mirror = mirror;
  }

  /**
   * Brings the mirror to the server's cursor. A call while one runs queues one more run after
   * it, which every later call shares: a burst of notices costs at most two requests, and the
   * last one starts after the last notice arrived.
   */
  catchUp(): Promise<CaughtUp | CatchUpRefused> {
    if (this.#queued) return this.#queued;
    if (!this.#running) return this.#run();
    this.#queued = this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = null;
        return this.#run();
      });
    return this.#queued;
  }

  #run(): Promise<CaughtUp | CatchUpRefused> {
    const run = this.#catchUpOnce().finally(() => {
      if (this.#running === run) this.#running = null;
    });
    this.#running = run;
    return run;
  }

  async #catchUpOnce(): Promise<CaughtUp | CatchUpRefused> {
    const { api, integrityKey, memory, account, vaultKey } = this.options;
    const before = this.#mirror;
    let answer = await changesSince(api, before.cursor);
    let reloaded = false;
    if (answer.reset) {
      answer = await changesSince(api, 0);
      // A full read has nothing to reset: a server that says so is not answering.
      if (answer.reset) throw new UnexpectedResponseError(200);
      reloaded = true;
    }
    const next = reloaded ? VaultMirror.fromFull(answer) : before.applied(answer);
    const remembered = await memory.vaultCounter(account);
    const live = await next.liveSet(integrityKey);
    let check = await checkVaultState(integrityKey, next.state, live, remembered, null);
    if (!check.ok) {
      // Only now the manifest is opened: it names what is wrong, it never decides whether.
      const manifest = await loadVaultManifest(memory, vaultKey, account);
      if (manifest) check = await checkVaultState(integrityKey, next.state, live, remembered, manifest);
      if (!check.ok) return { ok: false, report: check.report };
    }
    const counter = next.state === null ? null : parseVaultState(next.state)?.counter;
    if (counter) await memory.rememberVaultCounter(account, counter);
    this.#mirror = next;
    return {
      ok: true,
      mirror: next,
      reloaded,
      changed: {
        entries: answer.entries.map((entry) => entry.id),
        folders: answer.folders.map((folder) => folder.id),
        purgedEntries: answer.purgedEntries.map((row) => row.id),
        purgedFolders: answer.purgedFolders.map((row) => row.id),
      },
    };
  }
}
