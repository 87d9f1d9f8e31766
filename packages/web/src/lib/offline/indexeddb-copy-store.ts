import type { AccountRef, OfflineCopy, OfflineCopyStore, OfflinePasskeyUnlock } from '@lockit/client-core';
import { openDB, type IDBPDatabase } from 'idb';

const DATABASE = 'lockit-offline';
const COPIES = 'copies';
/** The queue of writes made offline (indexeddb-pending-store.ts), in the same database. */
export const PENDING = 'pending';
/** The passkey unlock keys kept for each account's copy, keyed by account ref. */
const PASSKEY_UNLOCKS = 'passkey-unlocks';

/**
 * The client core's OfflineCopyStore in this browser's IndexedDB (through `idb`, which turns
 * its request events into promises): one record per account ref, the copy as the core wrote
 * it. IndexedDB, not localStorage: a copy of 10,000 entries is megabytes, past localStorage's
 * quota, and structured clone keeps it without a JSON pass on the main thread.
 *
 * Security invariant: it stores what the core hands it (decision 0074: what the server served,
 * nothing decrypted) and hands back whatever it finds unread, since the core checks it
 * (readOfflineCopy) and refuses anything this version did not write.
 */
export class IndexedDbOfflineCopyStore implements OfflineCopyStore {
  #database: Promise<IDBPDatabase> | null = null;

  /** The database, opened once (and again after another tab deleted it). */
  open(): Promise<IDBPDatabase> {
    this.#database ??= openDB(DATABASE, 3, {
      upgrade(database, oldVersion) {
        if (oldVersion < 1) database.createObjectStore(COPIES);
        // Version 2: the writes queued offline, keyed [account, seq].
        if (oldVersion < 2) database.createObjectStore(PENDING);
        // Version 3: passkeys' unlock keys for the copies (offline Unlock with a passkey).
        if (oldVersion < 3) database.createObjectStore(PASSKEY_UNLOCKS);
      },
      // Another tab deletes the database (a logout there): let it, and open again next time.
      blocking: () => this.#close(),
      terminated: () => {
        this.#database = null;
      },
    }).catch((error: unknown) => {
      // A refused open (a private mode without IndexedDB) is tried again at the next call.
      this.#database = null;
      throw error;
    });
    return this.#database;
  }

  #close(): void {
    const opened = this.#database;
    this.#database = null;
    void opened?.then((database) => database.close()).catch(() => undefined);
  }

  async read(account: AccountRef): Promise<unknown> {
    return (await this.open()).get(COPIES, account);
  }

  async write(copy: OfflineCopy): Promise<void> {
    await (await this.open()).put(COPIES, copy, copy.account);
  }

  async erase(account: AccountRef): Promise<void> {
    const database = await this.open();
    await Promise.all([database.delete(COPIES, account), database.delete(PASSKEY_UNLOCKS, account)]);
  }

  /** Apart from the copy, so saving a copy of thousands of entries never reads the copy back. */
  readonly passkeyUnlocks = {
    read: async (account: AccountRef): Promise<unknown> => (await this.open()).get(PASSKEY_UNLOCKS, account),
    write: async (account: AccountRef, unlocks: readonly OfflinePasskeyUnlock[]): Promise<void> => {
      await (await this.open()).put(PASSKEY_UNLOCKS, unlocks, account);
    },
  };

  /** Every account's copy and passkey unlock keys (logout, the setting turned off): nothing of any vault stays on the device. */
  async eraseAll(): Promise<void> {
    const database = await this.open();
    await Promise.all([database.clear(COPIES), database.clear(PASSKEY_UNLOCKS)]);
  }
}
