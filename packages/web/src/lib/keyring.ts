import type { AccountRef } from '@lockit/client-core';
import type { KdfParams } from '@lockit/crypto';

/** What an unlocked vault needs in this tab. */
export interface UnlockedVault {
  /** The name to show. The server's word: never used to look anything up in this browser's memory. */
  username: string;
  /** This browser's ref of the account, made from the name the person typed (client core's account-ref). */
  account: AccountRef;
  /** AES-256-GCM, NON-extractable: entry fields are encrypted under it; its bytes are not kept. */
  vaultKey: CryptoKey;
  /**
   * HMAC-SHA256, NON-extractable, derived from the vault key bytes at unlock (HKDF, decision
   * 0053): authenticates the vault's live set (features/vault/integrity). Memory only, like
   * the vault key; a key rotation makes a new one.
   */
  integrityKey: CryptoKey;
  /** Not secret (the server stores them too); needed to re-wrap the vault key on a password change. */
  kdf: KdfParams;
  salt: string;
  protectedKey: string;
  /** The generation protectedKey was wrapped for; absent means 0. A password change sends this + 1. */
  keyGeneration?: number | undefined;
  /**
   * The key epoch of the vault key (key rotations; absent means 0), proved by the wrap that
   * opened: every wrap binds it. A password change and a passkey's unlock key keep it; a rotation
   * sends this + 1.
   */
  keyEpoch?: number | undefined;
  /**
   * This unlock's copy for a reload of the tab (decision 0048): the vault key wrapped under
   * `tabKey`, a NON-extractable key made for this unlock. Written to storage only while
   * "Lock on every reload" is off; absent where the browser cannot keep it.
   */
  reloadSeal?: ReloadSeal | undefined;
}

/** The vault key wrapped for a reload of this tab; see reload-unlock/reload-vault.ts. */
export interface ReloadSeal {
  /** Random id of this unlock's tab key in IndexedDB, also bound into the wrap. */
  id: string;
  tabKey: CryptoKey;
  /** v1.<iv>.<ciphertext+tag>: AES-256-GCM(tabKey, vault key bytes). */
  wrappedKey: string;
}

export type KeyMaterial = Pick<UnlockedVault, 'kdf' | 'salt' | 'protectedKey' | 'keyGeneration' | 'keyEpoch'>;

type Listener = () => void;

/**
 * How long a list fetched at sign-in may stand in for the vault's own fetch: the way from
 * sign-in to the vault (the toast, /home, the Vault link) takes seconds; a list older than
 * this is fetched anew, so the vault never opens on an old copy.
 */
export const PREFETCHED_LIST_FRESH_MS = 60_000;

interface PrefetchedList {
  vaultKey: CryptoKey;
  entries: Promise<unknown[]>;
  fetchedAt: number;
}

/**
 * The session key store of one tab.
 *
 * Security invariants:
 * - Memory only. Nothing held here is written to storage by the keyring itself, and nothing is
 *   logged. The one copy that survives a reload is the vault's `reloadSeal`, which
 *   reload-unlock writes (decision 0048): a wrapped key whose tab key is non-extractable.
 * - The vault key is held only as a non-extractable CryptoKey; raw key bytes, the master
 *   password, the master key and the wrap key are never stored here.
 * - Besides the key it may hold, for a minute after sign-in, the vault's list as the server
 *   sent it (ciphertext only); `clear()` and an unlock with another key drop it.
 * - `clear()` drops every reference. It runs on logout, on account deletion and when an
 *   unlock fails verification, so a later visitor of the tab finds the vault locked.
 * - `toJSON` reveals only whether the vault is unlocked, so an accidental JSON.stringify
 *   (e.g. in a log line) cannot leak the key material.
 */
export class Keyring {
  #vault: UnlockedVault | null = null;
  #lastActivityAt = 0;
  #restoring = false;
  #prefetched: PrefetchedList | null = null;
  readonly #listeners = new Set<Listener>();

  /** The unlocked vault, or null when locked. */
  get vault(): UnlockedVault | null {
    return this.#vault;
  }

  unlock(vault: UnlockedVault, now = Date.now()): void {
    if (this.#prefetched?.vaultKey !== vault.vaultKey) this.#prefetched = null;
    this.#vault = { ...vault, kdf: { ...vault.kdf } };
    this.#lastActivityAt = now;
    this.#restoring = false;
    this.#emit();
  }

  /** When the person was last active in this tab while unlocked (the idle lock counts from it). */
  get lastActivityAt(): number {
    return this.#lastActivityAt;
  }

  /** Cheap enough for every pointer move: one number, no listener runs. */
  noteActivity(now = Date.now()): void {
    if (this.#vault) this.#lastActivityAt = now;
  }

  /** True while a page load is opening the vault kept for a reload: pages wait before asking for the password. */
  get restoring(): boolean {
    return this.#restoring;
  }

  setRestoring(restoring: boolean): void {
    if (this.#restoring === restoring) return;
    this.#restoring = restoring;
    this.#emit();
  }

  /**
   * Keeps the vault's entry list (ciphertext, as the server sent it), fetched right after
   * sign-in, for the first view of that vault key: at 10,000 entries its download is half of
   * opening the vault, and Unlock already overlaps it with the key derivation. A failed fetch
   * is dropped, so the view fetches for itself.
   */
  holdPrefetchedList(vaultKey: CryptoKey, entries: Promise<unknown[]>, now = Date.now()): void {
    if (this.#vault?.vaultKey !== vaultKey) return;
    const held: PrefetchedList = { vaultKey, entries, fetchedAt: now };
    this.#prefetched = held;
    const drop = () => {
      if (this.#prefetched === held) this.#prefetched = null;
    };
    entries.catch(drop);
    // Not kept (5 MB at 10,000 entries) for a vault that is not opened soon.
    setTimeout(drop, PREFETCHED_LIST_FRESH_MS);
  }

  /**
   * The held list for this vault key, once: a second view (after changes made in the first)
   * must fetch the vault as it is now. Undefined when none is held or it is no longer fresh.
   */
  takePrefetchedList(vaultKey: CryptoKey, now = Date.now()): Promise<unknown[]> | undefined {
    const held = this.#prefetched;
    this.#prefetched = null;
    if (!held || held.vaultKey !== vaultKey || now - held.fetchedAt > PREFETCHED_LIST_FRESH_MS) return undefined;
    return held.entries;
  }

  /** After a password change: same vault key, new salt, params and wrapped copy. No-op when locked. */
  replaceKeyMaterial(material: KeyMaterial): void {
    if (!this.#vault) return;
    this.#vault = {
      ...this.#vault,
      kdf: { ...material.kdf },
      salt: material.salt,
      protectedKey: material.protectedKey,
      keyGeneration: material.keyGeneration,
    };
    this.#emit();
  }

  /** After a username change. No-op when locked. */
  rename(username: string, account: AccountRef): void {
    if (!this.#vault) return;
    this.#vault = { ...this.#vault, username, account };
    this.#emit();
  }

  clear(): void {
    this.#prefetched = null;
    if (this.#vault === null && !this.#restoring) return;
    this.#vault = null;
    this.#restoring = false;
    this.#emit();
  }

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  toJSON(): { unlocked: boolean } {
    return { unlocked: this.#vault !== null };
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}
