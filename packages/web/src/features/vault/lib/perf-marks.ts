/**
 * Marks the performance harness reads (`performance.getEntriesByName`). Names are stable:
 * lockit:vault-load-start when an unlocked vault starts fetching its list (the vault key is
 * ready), lockit:vault-decrypted when every entry's list fields are decrypted,
 * lockit:vault-painted after the first frame that shows the list, lockit:vault-checked when the
 * whole-vault integrity check of what was loaded has finished (decision 0053).
 */
export const VAULT_LOAD_START_MARK = 'lockit:vault-load-start';
export const VAULT_DECRYPTED_MARK = 'lockit:vault-decrypted';
export const VAULT_PAINTED_MARK = 'lockit:vault-painted';
export const VAULT_CHECKED_MARK = 'lockit:vault-checked';

export function mark(name: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name);
}

/**
 * requestAnimationFrame runs just before the next paint; the task queued from it runs just
 * after that paint. Returns a cancel function.
 */
export function markAfterNextPaint(name: string): () => void {
  let timeout: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timeout = setTimeout(() => mark(name), 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timeout);
  };
}
