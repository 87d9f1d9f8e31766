import {
  accountRefOf,
  ApiError,
  draftOf,
  EntryWrites,
  loadVaultSnapshot,
  VaultIntegrity,
  openEntries,
  openSecrets,
  PendingSecondFactor,
  signIn,
  unlockWithPassword,
  VaultSync,
  type ApiClient,
  type EntryDraft,
  type KeyPlatform,
  type OpenEntry,
  type VaultAccount,
  type VaultEntry,
} from '@lockit/client-core';
import type { LockState, Status } from '../shared/messages';
import type { MatchRule } from '../shared/url-match';
import { apiClientFor, currentDevice, derive, deviceMemory } from './extension-platform';
import { CatchUpRuns } from './catch-up-runs';
import type { HeldVault, KeyCustody } from './key-custody';
import { readSettings, writeSettings, type Settings } from './settings';

/** How long the entries are answered as held before a catch-up runs behind the answer. */
const STALE_MS = 30_000;

const REFUSED_VAULT =
  "The server's copy of your vault is older or incomplete, so Lockit did not use it. Open your vault in the web app to see what is wrong.";

/** What a KeyPlatform opens: the key goes straight into custody; this is only the sign-in's answer. */
type Opened = VaultAccount & { vaultKey: CryptoKey };

/**
 * The service worker's one vault: sign-in (with the second step), Unlock, Lock, Sign out, and
 * the opened entries. The popup and the pages never hold any of it; they ask through messages.
 *
 * Security invariants:
 * - Every trust decision (key settings, account, epoch, entry binding, rollback) is the client
 *   core's; this class only chooses when to call it.
 * - The vault key is held by KeyCustody (memory and storage.session); the opened entries stay
 *   in this worker's memory and are dropped on lock. A secret (password, TOTP seed) is opened
 *   only for the one copy or fill that needs it.
 * - A locked vault, a signed-out session or a server that answers 401 ends with no key held.
 */
export class VaultSession {
  #pending: PendingSecondFactor<Opened> | null = null;
  #entries: OpenEntry[] | null = null;
  #api: ApiClient | null = null;
  #apiFor: string | null = null;
  #integrity: { for: CryptoKey; tracker: VaultIntegrity } | null = null;
  /** The vault as served, followed through the change cursor (decision 0066), and what of it is opened. */
  #sync: { for: CryptoKey; sync: VaultSync; opened: Map<string, VaultEntry>; at: number } | null = null;
  #catchUps = new CatchUpRuns<OpenEntry[]>();
  /** A write or a notice changed the vault: the next entries() catches up before it answers. */
  #dirty = true;

  constructor(private readonly custody: KeyCustody) {}

  async status(): Promise<Status> {
    const settings = await readSettings();
    return {
      state: await this.#state(settings),
      server: settings.server,
      username: settings.username,
      idleMinutes: settings.idleMinutes,
      matchRule: settings.matchRule,
    };
  }

  /** Remembers the server's origin; the host permission was granted in the popup, by the person. */
  async connect(server: string): Promise<void> {
    await this.lock();
    this.#pending = null;
    await writeSettings({ server, username: null, signedIn: false });
  }

  async signIn(username: string, password: string): Promise<'signed-in' | 'second-factor'> {
    this.#pending?.discard();
    this.#pending = null;
    const result = await signIn(await this.#platform(), username, password);
    if (result.kind === 'second-factor') {
      this.#pending = result.pending;
      await writeSettings({ username });
      return 'second-factor';
    }
    await writeSettings({ username, signedIn: true });
    return 'signed-in';
  }

  async secondFactor(method: 'totp' | 'recovery', code: string): Promise<void> {
    if (!this.#pending) throw new Error('This sign-in has expired. Sign in again.');
    await this.#pending.withCode(method, code, false);
    this.#pending = null;
    await writeSettings({ signedIn: true });
  }

  async unlock(password: string): Promise<void> {
    const settings = await readSettings();
    if (!settings.username) throw new Error('Sign in first.');
    try {
      await unlockWithPassword(await this.#platform(), password, settings.username);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await writeSettings({ signedIn: false });
      throw error;
    }
  }

  /** Drops the key (memory and session copy) and every opened entry. */
  async lock(): Promise<void> {
    this.#entries = null;
    this.#integrity = null;
    this.#sync = null;
    this.#dirty = true;
    this.#catchUps.changed();
    await this.custody.forget();
  }

  async signOut(): Promise<void> {
    await this.lock();
    this.#pending?.discard();
    this.#pending = null;
    try {
      await (await this.#client()).call('logout', {});
    } finally {
      await writeSettings({ signedIn: false });
    }
  }

  async setPreferences(idleMinutes: number, matchRule: MatchRule): Promise<void> {
    await writeSettings({ idleMinutes, matchRule });
  }

  /**
   * The open vault's live entries (Trash and damaged ones left out). Read whole once per unlock,
   * then followed through the change cursor: after a write or a notice (`entriesChanged`) the
   * next call catches up first; past STALE_MS it answers what it holds and catches up behind.
   * Only what passed the whole-vault check is ever answered (VaultSync); a refused catch-up is
   * an error saying so, never the served entries.
   */
  async entries(): Promise<OpenEntry[]> {
    const held = await this.#requireHeld();
    const fresh = this.#sync?.for === held.vaultKey && !this.#dirty;
    if (this.#entries && fresh) {
      if (Date.now() - this.#sync!.at > STALE_MS) void this.#catchUp().catch(() => undefined);
      return this.#entries;
    }
    return this.#catchUp();
  }

  #catchUp(): Promise<OpenEntry[]> {
    // The key is read again when the run starts: it may wait behind another, and a lock between must hold.
    return this.#catchUps.run(async () => this.#catchUpOnce(await this.#requireHeld()));
  }

  async #catchUpOnce(held: HeldVault): Promise<OpenEntry[]> {
    if (this.#sync?.for !== held.vaultKey) {
      const { username } = await readSettings();
      if (!username) throw new Error('Sign in first.');
      const sync = new VaultSync({
        api: await this.#client(),
        vaultKey: held.vaultKey,
        integrityKey: held.integrityKey,
        memory: deviceMemory,
        account: await accountRefOf(username),
      });
      this.#sync = { for: held.vaultKey, sync, opened: new Map(), at: 0 };
    }
    const following = this.#sync;
    this.#dirty = false;
    const result = await following.sync.catchUp();
    if (!result.ok) {
      this.#dirty = true;
      throw new Error(REFUSED_VAULT);
    }
    const { mirror, changed } = result;
    const whole = result.reloaded || following.opened.size === 0;
    const ids = whole ? [...mirror.entries.keys()] : changed.entries;
    const wires = ids.map((id) => mirror.entries.get(id)).filter((wire) => wire !== undefined);
    const opened = await openEntries(held.vaultKey, wires);
    if (whole) following.opened.clear();
    for (const id of changed.purgedEntries) following.opened.delete(id);
    for (const entry of opened) following.opened.set(entry.id, entry);
    following.at = Date.now();
    // A lock while it ran: nothing opened here outlives it.
    if (this.#sync !== following) throw new Error('Your vault is locked.');
    // Nothing changed: the same list, so whoever holds it (the popup's live port) can tell.
    if (!whole && this.#entries && changed.entries.length === 0 && changed.purgedEntries.length === 0) return this.#entries;
    this.#entries = [...following.opened.values()].filter(
      (entry): entry is OpenEntry => entry.status === 'open' && entry.deletedAt === null,
    );
    return this.#entries;
  }

  /** One entry's secrets, opened now for one use. */
  async secrets(
    id: string,
  ): Promise<{ entry: OpenEntry; password: string; totp: string | null; card: { number: string; code: string } | null }> {
    const held = await this.#requireHeld();
    const entry = (await this.entries()).find((candidate) => candidate.id === id);
    if (!entry) throw new Error('That item is not in your vault.');
    const secrets = await openSecrets(held.vaultKey, entry);
    return { entry, password: secrets.password, totp: secrets.totp, card: secrets.card };
  }

  /** One entry as its editor holds it (every field, secrets opened), for a write that changes one of them. */
  async draft(id: string): Promise<EntryDraft> {
    const held = await this.#requireHeld();
    const entry = (await this.entries()).find((candidate) => candidate.id === id);
    if (!entry) throw new Error('That item is not in your vault.');
    return draftOf(entry, await openSecrets(held.vaultKey, entry));
  }

  /**
   * The client core's entry writes for the open vault, through this worker's one integrity
   * queue (decisions 0053, 0065): every write carries the whole-vault state after it, so the
   * web app's check keeps passing. After one, entriesChanged() makes the next entries() catch up.
   */
  async writes(): Promise<EntryWrites> {
    const held = await this.#requireHeld();
    const api = await this.#client();
    // The device's anti-rollback memory is kept under the name the person typed (AccountRef's rule).
    const { username } = await readSettings();
    if (!username) throw new Error('Sign in first.');
    if (this.#integrity?.for !== held.integrityKey) {
      const { integrityKey, vaultKey } = held;
      const tracker = new VaultIntegrity(integrityKey, vaultKey, await accountRefOf(username), {
        api,
        memory: deviceMemory,
        load: (names) => loadVaultSnapshot(api, integrityKey, vaultKey, names),
      });
      this.#integrity = { for: integrityKey, tracker };
    }
    return new EntryWrites({ api, vaultKey: held.vaultKey, integrity: this.#integrity.tracker });
  }

  /** The live entries held now, without catching up (null before the first look, or locked). */
  heldEntries(): readonly OpenEntry[] | null {
    return this.#entries;
  }

  /** After a write here or a notice of one elsewhere: the next look catches up with the server first. */
  entriesChanged(): void {
    this.#dirty = true;
    this.#catchUps.changed();
  }

  async #requireHeld(): Promise<HeldVault> {
    const held = await this.custody.held();
    if (!held) throw new Error('Your vault is locked.');
    return held;
  }

  async #state(settings: Settings): Promise<LockState> {
    if (!settings.server) return 'disconnected';
    if (this.#pending) return 'second-factor';
    if (await this.custody.held()) return 'unlocked';
    return settings.signedIn ? 'locked' : 'signed-out';
  }

  async #client(): Promise<ApiClient> {
    const { server } = await readSettings();
    if (!server) throw new Error('Connect to your Lockit server first.');
    if (this.#api === null || this.#apiFor !== server) {
      this.#api = apiClientFor(server);
      this.#apiFor = server;
    }
    return this.#api;
  }

  async #platform(): Promise<KeyPlatform<Opened>> {
    return {
      api: await this.#client(),
      memory: deviceMemory,
      derive,
      device: currentDevice,
      open: async (bytes, account) => ({ ...account, vaultKey: (await this.custody.keep(bytes, account.username)).vaultKey }),
    };
  }
}
