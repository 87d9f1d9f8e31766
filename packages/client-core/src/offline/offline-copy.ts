import { z } from 'zod';
import { parseAccountRef, type AccountRef } from '../device-memory/account-ref';
import type { OfflinePasskeyUnlock } from './passkey-unlock-store';

/**
 * The vault as the server last served it to this device, kept so Unlock works with the server
 * down: the key material (salt, KDF params, the wrapped vault key), the entries and folders as
 * listed, and the vault state header that came with them.
 *
 * Security invariants:
 * - Nothing in it is decrypted or derived from the password: it is what any server answer
 *   carries, so a stolen copy is worth no more than a stolen server database.
 * - Nothing in it is trusted: the key material passes every check a served one does (against
 *   this device's memory, so a copy older than a password change or key rotation this device
 *   saw is refused), each entry is checked as it is opened, and the vault state against the
 *   device's manifest memory, as for a served list.
 */
export interface OfflineCopy {
  v: 1;
  /** This device's ref of the account (from the name the person typed): whose copy it is. */
  account: AccountRef;
  /** The name to show; the server's word, never used to look anything up. */
  username: string;
  /** When the server served what the copy holds (ms since the epoch): "offline since". */
  savedAt: number;
  /** The key-material answer's data, unchecked until an Unlock checks it. */
  keyMaterial: unknown;
  /** The list answer's entries as served, each checked when opened. */
  entries: unknown[];
  /** The vault state header the list came with (null: the server sent none). */
  vaultState: string | null;
  /** The folders as served. */
  folders: unknown[];
}

/** Where a platform keeps copies (IndexedDB in a page, a file beside the command line's agent). */
export interface OfflineCopyStore {
  read(account: AccountRef): Promise<unknown>;
  write(copy: OfflineCopy): Promise<void>;
  /** Erases the account's copy and the passkey unlock keys kept with it. */
  erase(account: AccountRef): Promise<void>;
  /**
   * Where a platform that has passkeys keeps their unlock keys for the copy (offline-passkey-unlock.ts),
   * apart from the copy so saving a copy of thousands of entries never reads it back.
   */
  passkeyUnlocks?: {
    read(account: AccountRef): Promise<unknown>;
    write(account: AccountRef, unlocks: readonly OfflinePasskeyUnlock[]): Promise<void>;
  };
}

/** This device keeps no copy of the account's vault (never saved, turned off or erased). */
export class NoOfflineCopyError extends Error {
  override readonly name = 'NoOfflineCopyError';
  constructor() {
    super('This device has no offline copy of your vault. Connect to your Lockit server to unlock it.');
  }
}

/** What the store returned is not a copy this version wrote: refused, never read in part. */
export class OfflineCopyDamagedError extends Error {
  override readonly name = 'OfflineCopyDamagedError';
  constructor() {
    super(
      "This device's offline copy of your vault is damaged, so Lockit did not open it. Connect to your Lockit server to unlock.",
    );
  }
}

const offlineCopySchema = z.object({
  v: z.literal(1),
  account: z.string(),
  username: z.string(),
  savedAt: z.number().int().nonnegative(),
  keyMaterial: z.unknown(),
  entries: z.array(z.unknown()),
  vaultState: z.string().nullable(),
  folders: z.array(z.unknown()),
});

/** Reads `account`'s copy from the store: NoOfflineCopyError, OfflineCopyDamagedError. */
export async function readOfflineCopy(store: OfflineCopyStore, account: AccountRef): Promise<OfflineCopy> {
  const stored = await store.read(account);
  if (stored === undefined || stored === null) throw new NoOfflineCopyError();
  const parsed = offlineCopySchema.safeParse(stored);
  if (!parsed.success) throw new OfflineCopyDamagedError();
  const ref = parseAccountRef(parsed.data.account);
  // A copy filed under another account's ref is not this account's vault.
  if (ref !== account) throw new OfflineCopyDamagedError();
  return { ...parsed.data, account: ref };
}

/** In memory only: for Node's tests and for a platform that keeps no copy on disk. */
export class MemoryOfflineCopyStore implements OfflineCopyStore {
  readonly #copies = new Map<AccountRef, unknown>();
  readonly #passkeyUnlocks = new Map<AccountRef, unknown>();

  readonly passkeyUnlocks = {
    read: (account: AccountRef): Promise<unknown> => Promise.resolve(structuredClone(this.#passkeyUnlocks.get(account))),
    write: (account: AccountRef, unlocks: readonly OfflinePasskeyUnlock[]): Promise<void> => {
      this.#passkeyUnlocks.set(account, structuredClone(unlocks));
      return Promise.resolve();
    },
  };

  read(account: AccountRef): Promise<unknown> {
    return Promise.resolve(structuredClone(this.#copies.get(account)));
  }

  write(copy: OfflineCopy): Promise<void> {
    this.#copies.set(copy.account, structuredClone(copy));
    return Promise.resolve();
  }

  erase(account: AccountRef): Promise<void> {
    this.#copies.delete(account);
    this.#passkeyUnlocks.delete(account);
    return Promise.resolve();
  }
}
