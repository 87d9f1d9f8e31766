import { DEFAULT_CLIPBOARD_CLEAR_SECONDS, readClipboardClearSeconds } from '@/lib/clipboard-clear';

/** How long a copied secret stays on the clipboard before Lockit takes it back, unless Profile says otherwise. */
export const DEFAULT_CLIPBOARD_CLEAR_MS = DEFAULT_CLIPBOARD_CLEAR_SECONDS * 1_000;

export type ClipboardAccess = Pick<Clipboard, 'writeText' | 'readText'>;

export interface CopyWithClearOptions {
  /**
   * Milliseconds until the clear; 0 or less, or not finite, leaves the text on the clipboard.
   * Unless given, the delay chosen in Profile ("Clear clipboard after"), read at each copy.
   */
  clearAfterMs?: number;
  /** The page's clipboard unless given (tests pass a fake). */
  clipboard?: ClipboardAccess;
}

export class ClipboardUnavailableError extends Error {
  override name = 'ClipboardUnavailableError';
  constructor() {
    super('The clipboard is not available on this page. It needs HTTPS, or localhost.');
  }
}

/** The latest copy; an older copy's clear sees it is no longer the latest and does nothing. */
let latestCopy = 0;
let pendingClear: ReturnType<typeof setTimeout> | undefined;
let pendingFocusRetry: (() => void) | undefined;

function cancelPendingClear(): void {
  clearTimeout(pendingClear);
  pendingClear = undefined;
  pendingFocusRetry?.();
  pendingFocusRetry = undefined;
}

/**
 * Copies `text`, then after `clearAfterMs` empties the clipboard, but only if it still holds
 * `text`: if the person copied something else meanwhile, that stays. A newer call cancels
 * the pending clear of an older one, so each copy gets its full time.
 *
 * When the clipboard cannot be read the clear is skipped, never done blindly: wiping
 * whatever the person copied since (in another app, perhaps their only copy of it) is worse
 * than leaving a secret they copied themselves. Browsers refuse the read while the page is
 * not focused (the person is pasting into another app), so then the check waits for the
 * page to get focus back and tries once more; a refusal while focused (permission denied)
 * ends it.
 *
 * Rejects, and schedules nothing, when the write itself fails.
 */
export async function copyWithClear(text: string, options: CopyWithClearOptions = {}): Promise<void> {
  const clipboard = options.clipboard ?? globalThis.navigator?.clipboard;
  if (!clipboard) throw new ClipboardUnavailableError();
  const copy = ++latestCopy;
  cancelPendingClear();
  await clipboard.writeText(text);
  // A newer copy started while this one was writing: its clear is the one that counts.
  if (copy !== latestCopy) return;
  const clearAfterMs = options.clearAfterMs ?? readClipboardClearSeconds() * 1_000;
  if (!(clearAfterMs > 0 && Number.isFinite(clearAfterMs))) return;
  pendingClear = setTimeout(() => {
    pendingClear = undefined;
    void clearIfUnchanged(clipboard, text, copy, true);
  }, clearAfterMs);
}

async function clearIfUnchanged(clipboard: ClipboardAccess, text: string, copy: number, mayRetry: boolean): Promise<void> {
  let current: string;
  try {
    current = await clipboard.readText();
  } catch {
    if (mayRetry && copy === latestCopy && !pageHasFocus()) retryOnFocus(clipboard, text, copy);
    return;
  }
  if (copy !== latestCopy || current !== text) return;
  try {
    await clipboard.writeText('');
  } catch {
    // Nothing the person could do about it, and the secret is theirs: leave it.
  }
}

function pageHasFocus(): boolean {
  return typeof document === 'undefined' || document.hasFocus();
}

function retryOnFocus(clipboard: ClipboardAccess, text: string, copy: number): void {
  if (typeof window === 'undefined') return;
  const onFocus = () => {
    pendingFocusRetry = undefined;
    window.removeEventListener('focus', onFocus);
    void clearIfUnchanged(clipboard, text, copy, false);
  };
  window.addEventListener('focus', onFocus);
  pendingFocusRetry = () => window.removeEventListener('focus', onFocus);
}
