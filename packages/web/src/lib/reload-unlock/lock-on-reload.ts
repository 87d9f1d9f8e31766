import { useSyncExternalStore } from 'react';

/**
 * "Lock on every reload" (Profile), per browser in localStorage like the auto-lock delay: a
 * preference, not a secret, and one that must be readable before the vault is open, so it
 * cannot live in an encrypted account document. Only "true" turns it on; anything else found
 * under the key means off, the default (a reload keeps the vault open, decision 0048).
 */
export const LOCK_ON_RELOAD_STORAGE_KEY = 'lockit.lockOnReload';

const listeners = new Set<() => void>();
/** A choice the storage refused (disabled, full): it still holds for this page. */
let unsavedChoice: boolean | null = null;

export function readLockOnReload(): boolean {
  if (unsavedChoice !== null) return unsavedChoice;
  try {
    return window.localStorage.getItem(LOCK_ON_RELOAD_STORAGE_KEY) === 'true';
  } catch {
    // Storage disabled: nothing can be kept for a reload either (see tab-session.ts).
    return false;
  }
}

export function saveLockOnReload(lock: boolean): void {
  try {
    if (lock) window.localStorage.setItem(LOCK_ON_RELOAD_STORAGE_KEY, 'true');
    else window.localStorage.removeItem(LOCK_ON_RELOAD_STORAGE_KEY);
    unsavedChoice = null;
  } catch {
    unsavedChoice = lock;
  }
  for (const listener of listeners) listener();
}

/** Follows changes made in this tab and, through the storage event, in other tabs. */
export function subscribeLockOnReload(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === LOCK_ON_RELOAD_STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const off = () => false;

export function useLockOnReload(): boolean {
  return useSyncExternalStore(subscribeLockOnReload, readLockOnReload, off);
}
