import type { AccountRef, OfflineCopy, OfflineCopyStore } from '@lockit/client-core';
import { openDB, type IDBPDatabase } from 'idb';

const DATABASE = 'lockit-offline';
const COPIES = 'copies';
/** The queue of writes made offline (indexeddb-pending-store.ts), in the same database. */
export const PENDING = 'pending';

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
    this.#database ??= openDB(DATABASE, 2, {
      upgrade(database, oldVersion) {
        if (oldVersion < 1) database.createObjectStore(COPIES);
        // Version 2: the writes queued offline, keyed [account, seq].
        if (oldVersion < 2) database.createObjectStore(PENDING);
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
    await (await this.open()).delete(COPIES, account);
  }

  /** Every account's copy (logout, the setting turned off): nothing of any vault stays on the device. */
  async eraseAll(): Promise<void> {
    await (await this.open()).clear(COPIES);
  }
}
