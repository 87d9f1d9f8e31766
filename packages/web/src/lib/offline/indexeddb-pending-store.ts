import type { AccountRef, PendingWrite, PendingWriteStore } from '@lockit/client-core';
import { PENDING, type IndexedDbOfflineCopyStore } from './indexeddb-copy-store';

/** Every key of `account`: [account, seq] for any seq. */
const accountRange = (account: AccountRef) => IDBKeyRange.bound([account, 0], [account, Number.MAX_SAFE_INTEGER]);

/**
 * The client core's PendingWriteStore in this browser's IndexedDB, beside the offline copies
 * (same database, its own object store), keyed [account, seq] so a queue reads in order.
 *
 * Security invariant: it stores what the core hands it (sealed writes, never plaintext) and
 * hands back whatever it finds, unread: the core checks each record (readPendingWrites).
 */
export class IndexedDbPendingWriteStore implements PendingWriteStore {
  constructor(private readonly copies: IndexedDbOfflineCopyStore) {}

  async list(account: AccountRef): Promise<unknown[]> {
    return (await this.copies.open()).getAll(PENDING, accountRange(account));
  }

  async put(write: PendingWrite): Promise<void> {
    await (await this.copies.open()).put(PENDING, write, [write.account, write.seq]);
  }

  async remove(account: AccountRef, seq: number): Promise<void> {
    await (await this.copies.open()).delete(PENDING, [account, seq]);
  }

  async clear(account: AccountRef): Promise<void> {
    await (await this.copies.open()).delete(PENDING, accountRange(account));
  }

  /** Every account's queue (logout, account deletion). */
  async clearAll(): Promise<void> {
    await (await this.copies.open()).clear(PENDING);
  }
}
