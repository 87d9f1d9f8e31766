import type { KdfParams } from '@lockit/crypto';

/** What an unlocked vault needs in this tab. */
export interface UnlockedVault {
  username: string;
  /** AES-256-GCM, NON-extractable: entry fields are encrypted under it; its bytes are not kept. */
  vaultKey: CryptoKey;
  /** Not secret (the server stores them too); needed to re-wrap the vault key on a password change. */
  kdf: KdfParams;
  salt: string;
  protectedKey: string;
}

export type KeyMaterial = Pick<UnlockedVault, 'kdf' | 'salt' | 'protectedKey'>;

type Listener = () => void;

/**
 * The session key store of one tab.
 *
 * Security invariants:
 * - Memory only. Nothing held here is ever written to localStorage, sessionStorage,
 *   IndexedDB or a cookie, and nothing is logged: closing or reloading the tab locks the vault.
 * - The vault key is held only as a non-extractable CryptoKey; raw key bytes, the master
 *   password, the master key and the wrap key are never stored here.
 * - `clear()` drops every reference. It runs on logout, on account deletion and when an
 *   unlock fails verification, so a later visitor of the tab finds the vault locked.
 * - `toJSON` reveals only whether the vault is unlocked, so an accidental JSON.stringify
 *   (e.g. in a log line) cannot leak the key material.
 */
export class Keyring {
  #vault: UnlockedVault | null = null;
  readonly #listeners = new Set<Listener>();

  /** The unlocked vault, or null when locked. */
  get vault(): UnlockedVault | null {
    return this.#vault;
  }

  unlock(vault: UnlockedVault): void {
    this.#vault = { ...vault, kdf: { ...vault.kdf } };
    this.#emit();
  }

  /** After a password change: same vault key, new salt, params and wrapped copy. No-op when locked. */
  replaceKeyMaterial(material: KeyMaterial): void {
    if (!this.#vault) return;
    this.#vault = { ...this.#vault, kdf: { ...material.kdf }, salt: material.salt, protectedKey: material.protectedKey };
    this.#emit();
  }

  /** After a username change. No-op when locked. */
  rename(username: string): void {
    if (!this.#vault) return;
    this.#vault = { ...this.#vault, username };
    this.#emit();
  }

  clear(): void {
    if (this.#vault === null) return;
    this.#vault = null;
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
