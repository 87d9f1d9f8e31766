import type { AccountRef } from '../device-memory/account-ref';
import type { SealedEntry } from '../vault/seal-entry';
import { readPendingWrites, type PendingWrite, type PendingWriteStore } from './pending-writes';

/** Where the queue is kept and whose it is. */
export interface EntryWriteQueuePlatform {
  store: PendingWriteStore;
  account: AccountRef;
  /** The clock in ms (queue times). Date.now where not given. */
  now?: () => number;
}

/** A queued write as the caller states it (the queue adds the account, order and time). */
export type QueuedChange =
  | { kind: 'add'; sealed: SealedEntry }
  | { kind: 'update'; revision: number; sealed: SealedEntry }
  | { kind: 'trash'; id: string; revision: number; trashedAt: number }
  | { kind: 'restore'; id: string; revision: number };

/**
 * One account's queue of entry writes made while the server could not be reached, in the
 * platform's store, so it outlives the page or process. Writes are kept in the order made; an
 * edit of an entry whose add or edit is still queued replaces that write's content (the add
 * stays an add, the edit keeps the revision it was based on), so one entry waits as one write.
 *
 * Security invariant: the queue holds only what PendingWrite allows (ciphertexts, ids,
 * revisions, times); records are checked when read back.
 */
export class EntryWriteQueue {
  constructor(private readonly platform: EntryWriteQueuePlatform) {}

  get account(): AccountRef {
    return this.platform.account;
  }

  /** The queued writes, in the order they are to be sent. */
  list(): Promise<PendingWrite[]> {
    return readPendingWrites(this.platform.store, this.platform.account);
  }

  /** Queues `change` after every write queued before it; answers the write as kept. */
  async push(change: QueuedChange): Promise<PendingWrite> {
    const writes = await this.list();
    const queuedAt = (this.platform.now ?? Date.now)();
    const base = { v: 1 as const, account: this.platform.account, queuedAt };
    if (change.kind === 'update') {
      const last = writes.findLast((write) => write.id === change.sealed.id);
      // The edit is based on what that queued write will make: revision 1 after an add, one up after an edit.
      const merged: PendingWrite | null =
        last?.kind === 'add' && change.revision === 1
          ? { ...last, sealed: change.sealed, queuedAt }
          : last?.kind === 'update' && change.revision === last.revision + 1
            ? { ...last, sealed: change.sealed, queuedAt }
            : null;
      if (merged) {
        await this.platform.store.put(merged);
        return merged;
      }
    }
    const seq = writes.reduce((highest, write) => Math.max(highest, write.seq), 0) + 1;
    const id = 'sealed' in change ? change.sealed.id : change.id;
    const write = { ...base, ...change, id, seq } as PendingWrite;
    await this.platform.store.put(write);
    return write;
  }

  /** Removes a write: sent, settled by the person, or refused for good. */
  drop(write: PendingWrite): Promise<void> {
    return this.platform.store.remove(this.platform.account, write.seq);
  }

  /** Every queued write of the account (logout). */
  clear(): Promise<void> {
    return this.platform.store.clear(this.platform.account);
  }
}
