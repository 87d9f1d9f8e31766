import { useSyncExternalStore } from 'react';

/**
 * The choices Profile offers for how long a copied secret stays on the clipboard, in seconds.
 * There is no "never": a secret left on the clipboard is readable by every app and page the
 * person pastes into later.
 */
export const CLIPBOARD_CLEAR_CHOICES = [10, 20, 30, 60, 120, 300] as const;
export type ClipboardClearSeconds = (typeof CLIPBOARD_CLEAR_CHOICES)[number];
export const DEFAULT_CLIPBOARD_CLEAR_SECONDS: ClipboardClearSeconds = 30;

/**
 * Only this number lives in localStorage, per browser like the auto-lock delay: a preference,
 * not a secret. Anything else found under the key (edited by hand, a choice since withdrawn)
 * falls back to the default.
 */
export const CLIPBOARD_CLEAR_STORAGE_KEY = 'lockit.clipboardClearSeconds';

const listeners = new Set<() => void>();
/** A choice the storage refused (disabled, full): it still holds for this page. */
let unsavedChoice: ClipboardClearSeconds | null = null;

function isChoice(value: number): value is ClipboardClearSeconds {
  return (CLIPBOARD_CLEAR_CHOICES as readonly number[]).includes(value);
}

export function readClipboardClearSeconds(): ClipboardClearSeconds {
  if (unsavedChoice !== null) return unsavedChoice;
  try {
    const stored = Number(window.localStorage.getItem(CLIPBOARD_CLEAR_STORAGE_KEY));
    return isChoice(stored) ? stored : DEFAULT_CLIPBOARD_CLEAR_SECONDS;
  } catch {
    // Storage disabled (some private modes): the default still clears the clipboard.
    return DEFAULT_CLIPBOARD_CLEAR_SECONDS;
  }
}

export function saveClipboardClearSeconds(seconds: ClipboardClearSeconds): void {
  try {
    window.localStorage.setItem(CLIPBOARD_CLEAR_STORAGE_KEY, String(seconds));
    unsavedChoice = null;
  } catch {
    // Not stored: the choice holds for this page only.
    unsavedChoice = seconds;
  }
  for (const listener of listeners) listener();
}

/** Follows changes made in this tab and, through the storage event, in other tabs. */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === CLIPBOARD_CLEAR_STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const defaultSeconds = () => DEFAULT_CLIPBOARD_CLEAR_SECONDS;

/** The chosen seconds, following changes (Profile's select). A copy reads it afresh each time. */
export function useClipboardClearSeconds(): ClipboardClearSeconds {
  return useSyncExternalStore(subscribe, readClipboardClearSeconds, defaultSeconds);
}
