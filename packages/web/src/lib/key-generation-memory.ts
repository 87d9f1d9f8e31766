import { KeyGenerationRolledBackError } from '@lockit/crypto';
import { accountStorageKey } from './kdf-memory';

/**
 * This browser's memory of the highest key generation it has seen for each account (issue
 * 15), beside the KDF memory: a server that answers a password change with success but later
 * serves the old salt and wrapped key again (generation lower than the one this browser saw)
 * is caught before anything is derived from the password.
 *
 * Security invariants:
 * - Only a number is stored, under a SHA-256 of the folded name (as kdf-memory does).
 * - It only ever rises, and only after the server's wrap proved the generation: a vault key
 *   that unwrapped under it (the generation is in the wrap's associated data), or a password
 *   change this browser made and the server accepted.
 * - Without storage nothing is remembered and nothing is refused.
 */

const STORAGE_PREFIX = 'lockit.keyGeneration.';

const storageKeyFor = (username: string) => accountStorageKey(STORAGE_PREFIX, username);

function read(key: string): number | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    // Not ours or damaged: treated as no memory.
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
  } catch {
    return null;
  }
}

function write(key: string, generation: number): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(generation));
  } catch {
    // Storage unavailable: this browser simply remembers nothing.
  }
}

/** Raises this browser's memory for `username` to at least `generation`. */
export async function rememberKeyGeneration(username: string, generation: number): Promise<void> {
  const key = await storageKeyFor(username);
  write(key, Math.max(generation, read(key) ?? 0));
}

/**
 * Throws KeyGenerationRolledBackError when `generation` is lower than the highest this browser
 * has seen for `username`. Call it before deriving anything from the password.
 */
export async function checkRememberedKeyGeneration(username: string, generation: number): Promise<void> {
  const seen = read(await storageKeyFor(username));
  if (seen !== null && generation < seen) throw new KeyGenerationRolledBackError(generation, seen);
}

/** After a rename the memory follows the account to its new name. */
export async function moveRememberedKeyGeneration(from: string, to: string): Promise<void> {
  const [fromKey, toKey] = await Promise.all([storageKeyFor(from), storageKeyFor(to)]);
  if (fromKey === toKey) return;
  const seen = read(fromKey);
  if (seen === null) return;
  write(toKey, Math.max(seen, read(toKey) ?? 0));
  try {
    window.localStorage.removeItem(fromKey);
  } catch {
    // Nothing to clean up without storage.
  }
}

/** The account was deleted from this browser: nothing of it is left to protect. */
export async function forgetRememberedKeyGeneration(username: string): Promise<void> {
  const key = await storageKeyFor(username);
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to forget without storage.
  }
}
