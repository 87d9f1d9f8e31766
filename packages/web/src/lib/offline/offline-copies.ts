import type { AccountRef, OfflineCopy } from '@lockit/client-core';
import { api } from '../http';
import { logFailure } from '../log';
import { IndexedDbOfflineCopyStore } from './indexeddb-copy-store';
import { IndexedDbPendingWriteStore } from './indexeddb-pending-store';
import { readKeepOfflineCopy } from './keep-offline-copy';

/** This browser's offline copies of vaults (decision 0074), in IndexedDB. */
export const offlineCopies = new IndexedDbOfflineCopyStore();
/** The writes made while the server could not be reached, queued sealed until it answers. */
export const pendingWriteStore = new IndexedDbPendingWriteStore(offlineCopies);

/** What a load or a catch-up of the vault was served, to keep as the copy. */
export interface ServedVault {
  account: AccountRef;
  username: string;
  /** When the server served it (ms): the copy's "offline since". */
  servedAt: number;
  entries: unknown[];
  vaultState: string | null;
  folders: unknown[];
}

/**
 * Keeps what the server served as this device's offline copy, unless the person turned the copy
 * off. Called only after the vault passed its whole-vault check, and only with a list that came
 * with its vault state (the copy is checked against the state this device remembers), so a
 * server that serves an older or forked vault never replaces a good copy. The key material is fetched here (a few
 * hundred bytes): the copy must be unlockable with the key the account has now.
 *
 * Security invariant: only server answers go in (ciphertexts, the wrapped key, the sealed
 * state); never anything decrypted. A failure is logged and changes nothing.
 */
export async function saveOfflineCopy(served: ServedVault): Promise<void> {
  // No IndexedDB (an old browser, some private modes): nothing can be kept.
  if (!readKeepOfflineCopy() || typeof indexedDB === 'undefined') return;
  try {
    const material = await api.call('key-material', {});
    // The setting may have been turned off (and the copies erased) while the key material came.
    if (!readKeepOfflineCopy()) return;
    const copy: OfflineCopy = {
      v: 1,
      account: served.account,
      username: served.username,
      savedAt: served.servedAt,
      keyMaterial: material.data,
      entries: served.entries,
      vaultState: served.vaultState,
      folders: served.folders,
    };
    await offlineCopies.write(copy);
  } catch (error) {
    logFailure('Saving the offline copy of your vault', error);
  }
}

/**
 * Erases every offline copy on this device (logout, account deletion, the setting turned off),
 * and with `queuedWrites` (logout, account deletion) the writes still waiting to be sent too:
 * turning the copy off keeps them, they are the person's changes. A failure is logged:
 * IndexedDB refused (then it holds nothing of ours either) or is gone.
 */
export async function eraseOfflineCopies({ queuedWrites = false } = {}): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  try {
    await offlineCopies.eraseAll();
    if (queuedWrites) await pendingWriteStore.clearAll();
  } catch (error) {
    logFailure('Erasing the offline copy of your vault', error);
  }
}
