import { readPendingWrites, type AccountRef, type PendingWrite } from '@lockit/client-core';
import { useSyncExternalStore } from 'react';
import { logFailure } from '../log';
import { pendingWriteStore } from './offline-copies';

/**
 * What the screens show of the queue of writes made offline: which entries wait to be sent
 * and how many writes, for the account whose vault is open. Read again from IndexedDB after
 * each change of the queue (refreshPending); the queue itself is the client core's.
 */
interface PendingState {
  account: AccountRef | null;
  ids: ReadonlySet<string>;
  count: number;
}

let state: PendingState = { account: null, ids: new Set(), count: 0 };
const listeners = new Set<() => void>();

function publish(next: PendingState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** The account's queued writes, read again; the screens follow. Empty (and logged) when IndexedDB refuses. */
export async function refreshPending(account: AccountRef): Promise<PendingWrite[]> {
  if (typeof indexedDB === 'undefined') return [];
  let writes: PendingWrite[];
  try {
    writes = await readPendingWrites(pendingWriteStore, account);
  } catch (error) {
    logFailure('Reading the changes waiting to sync', error);
    return [];
  }
  publish({ account, ids: new Set(writes.map((write) => write.id)), count: writes.length });
  return writes;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many writes wait to be sent. */
export function usePendingCount(): number {
  return useSyncExternalStore(subscribe, () => state.count);
}

/** Whether entry `id` has a write waiting to be sent. */
export function useIsPending(id: string): boolean {
  return useSyncExternalStore(subscribe, () => state.ids.has(id));
}
