import { useSyncExternalStore } from 'react';

/** The choices Profile offers, in minutes. */
export const AUTO_LOCK_CHOICES = [1, 5, 15, 30, 60] as const;
export type AutoLockMinutes = (typeof AUTO_LOCK_CHOICES)[number];
export const DEFAULT_AUTO_LOCK_MINUTES: AutoLockMinutes = 15;

/**
 * Only this number lives in localStorage: a preference, not a secret. Anything else found
 * under the key (edited by hand, an older format) falls back to the default.
 */
export const AUTO_LOCK_STORAGE_KEY = 'lockit.autoLockMinutes';

const listeners = new Set<() => void>();

function isChoice(value: number): value is AutoLockMinutes {
  return (AUTO_LOCK_CHOICES as readonly number[]).includes(value);
}

export function readAutoLockMinutes(): AutoLockMinutes {
  try {
    const stored = Number(window.localStorage.getItem(AUTO_LOCK_STORAGE_KEY));
    return isChoice(stored) ? stored : DEFAULT_AUTO_LOCK_MINUTES;
  } catch {
    // Storage disabled (some private modes): the default still protects the vault.
    return DEFAULT_AUTO_LOCK_MINUTES;
  }
}

export function saveAutoLockMinutes(minutes: AutoLockMinutes): void {
  try {
    window.localStorage.setItem(AUTO_LOCK_STORAGE_KEY, String(minutes));
  } catch {
    // Not stored: the choice still applies to this tab through the listeners below.
  }
  for (const listener of listeners) listener();
}

/** Follows changes made in this tab and, through the storage event, in other tabs. */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === AUTO_LOCK_STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const noSubscription = () => () => {};
const defaultMinutes = () => DEFAULT_AUTO_LOCK_MINUTES;

/**
 * The chosen minutes, following changes. With `active` false it reads nothing and answers
 * the default: the first read of localStorage is a synchronous trip to the browser's storage
 * backend, which a page without an unlocked vault (every first visit) need not pay.
 */
export function useAutoLockMinutes(active = true): AutoLockMinutes {
  // The prerendered HTML and the render that hydrates it show the default; the choice follows.
  return useSyncExternalStore(active ? subscribe : noSubscription, active ? readAutoLockMinutes : defaultMinutes, defaultMinutes);
}
