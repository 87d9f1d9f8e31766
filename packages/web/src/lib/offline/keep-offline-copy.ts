import { useSyncExternalStore } from 'react';

/**
 * "Keep an offline copy on this device" (Profile), per browser in localStorage like "Lock on
 * every reload": a preference that must be readable before the vault is open. On by default;
 * only "false" under the key turns it off, so a damaged value keeps the default.
 */
export const KEEP_OFFLINE_COPY_STORAGE_KEY = 'lockit.keepOfflineCopy';

const listeners = new Set<() => void>();
/** A choice the storage refused (disabled, full): it still holds for this page. */
let unsavedChoice: boolean | null = null;

export function readKeepOfflineCopy(): boolean {
  if (unsavedChoice !== null) return unsavedChoice;
  try {
    return window.localStorage.getItem(KEEP_OFFLINE_COPY_STORAGE_KEY) !== 'false';
  } catch {
    return true;
  }
}

export function saveKeepOfflineCopy(keep: boolean): void {
  try {
    if (keep) window.localStorage.removeItem(KEEP_OFFLINE_COPY_STORAGE_KEY);
    else window.localStorage.setItem(KEEP_OFFLINE_COPY_STORAGE_KEY, 'false');
    unsavedChoice = null;
  } catch {
    unsavedChoice = keep;
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEEP_OFFLINE_COPY_STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const on = () => true;

export function useKeepOfflineCopy(): boolean {
  return useSyncExternalStore(subscribe, readKeepOfflineCopy, on);
}
