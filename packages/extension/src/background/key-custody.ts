import { deriveVaultIntegrityKey, fromBase64Url, importVaultKey, toBase64Url } from '@lockit/crypto';
import { z } from 'zod';

/** The open vault as the service worker holds it: a non-extractable key and who it belongs to. */
export interface HeldVault {
  vaultKey: CryptoKey;
  /** The whole-vault integrity key (decision 0053), derived from the same bytes; seals the state a write carries. */
  integrityKey: CryptoKey;
  username: string;
}

const SESSION_KEY = 'lockit.vault';

const heldSchema = z.strictObject({ key: z.string().min(1).max(100), username: z.string().max(200) });

/**
 * Where the vault key lives while the vault is open: in the service worker's memory, and a copy
 * in `chrome.storage.session` so that the browser stopping an idle service worker does not
 * lock the vault.
 *
 * Security invariants:
 * - `storage.session` is kept in memory by the browser, never written to disk, and emptied
 *   when the browser closes; its access level stays TRUSTED_CONTEXTS (the default, set again at
 *   start), so content scripts cannot read it. Nothing of the key goes to `storage.local`.
 * - What the worker uses is a NON-extractable CryptoKey imported from that copy; the raw bytes
 *   it was made from are zero-filled once encoded.
 * - `forget()` removes both the memory copy and the session copy: lock means no key anywhere.
 */
export class KeyCustody {
  #held: HeldVault | null = null;
  #loading: Promise<HeldVault | null> | null = null;

  constructor(private readonly area: chrome.storage.StorageArea) {}

  /** Keeps the key bytes (zero-filled afterwards) for `username`; returns the vault as held. */
  async keep(bytes: Uint8Array, username: string): Promise<HeldVault> {
    try {
      const [vaultKey, integrityKey] = await Promise.all([importVaultKey(bytes), deriveVaultIntegrityKey(bytes)]);
      await this.area.set({ [SESSION_KEY]: { key: toBase64Url(bytes), username } });
      this.#held = { vaultKey, integrityKey, username };
      return this.#held;
    } finally {
      bytes.fill(0);
    }
  }

  /** The open vault, from memory or (after the worker restarted) from the session copy. */
  held(): Promise<HeldVault | null> {
    if (this.#held) return Promise.resolve(this.#held);
    this.#loading ??= this.#restore().finally(() => (this.#loading = null));
    return this.#loading;
  }

  async forget(): Promise<void> {
    this.#held = null;
    await this.area.remove(SESSION_KEY);
  }

  async #restore(): Promise<HeldVault | null> {
    const stored = (await this.area.get(SESSION_KEY))[SESSION_KEY];
    const parsed = heldSchema.safeParse(stored);
    if (!parsed.success) return null;
    const bytes = fromBase64Url(parsed.data.key);
    try {
      const [vaultKey, integrityKey] = await Promise.all([importVaultKey(bytes), deriveVaultIntegrityKey(bytes)]);
      this.#held = { vaultKey, integrityKey, username: parsed.data.username };
    } catch {
      // Not a vault key: treated as locked, and the copy dropped.
      await this.area.remove(SESSION_KEY);
      return null;
    } finally {
      bytes.fill(0);
    }
    return this.#held;
  }
}
