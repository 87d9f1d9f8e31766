import { accountStorageKey } from './kdf-memory';

/**
 * This browser's memory of the highest vault state counter it has seen for each account
 * (decision 0053), as key-generation-memory keeps the key generation: a server that later
 * serves an older state (a lower counter), or none at all, is caught although that state's
 * tag is genuine.
 *
 * Security invariants:
 * - Only a number is stored, under a SHA-256 of the folded name.
 * - It only ever rises, and only after a state verified under the vault's integrity key (a
 *   check that passed) or one this browser sealed and the server accepted.
 * - Without storage nothing is remembered: the check then only compares within this tab.
 */
const STORAGE_PREFIX = 'lockit.vaultCounter.';
/** Where features/vault/integrity/vault-manifest.ts keeps the sealed manifest: it moves and goes with the counter. */
export const VAULT_MANIFEST_STORAGE_PREFIX = 'lockit.vaultManifest.';

const storageKeyFor = (username: string) => accountStorageKey(STORAGE_PREFIX, username);

function read(key: string): number {
  try {
    const raw = window.localStorage.getItem(key);
    if (raw === null) return 0;
    const value: unknown = JSON.parse(raw);
    // Not ours or damaged: treated as no memory.
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** The highest counter this browser saw for `username`; 0 when none. */
export async function rememberedVaultCounter(username: string): Promise<number> {
  return read(await storageKeyFor(username));
}

/** Raises this browser's memory for `username` to at least `counter`. */
export async function rememberVaultCounter(username: string, counter: number): Promise<void> {
  const key = await storageKeyFor(username);
  const next = Math.max(counter, read(key));
  try {
    window.localStorage.setItem(key, JSON.stringify(next));
  } catch {
    // Storage unavailable: this browser simply remembers nothing.
  }
}

/** After a rename the memory (counter and manifest) follows the account to its new name. */
export async function moveRememberedVaultCounter(from: string, to: string): Promise<void> {
  const [fromKey, toKey, fromManifest, toManifest] = await Promise.all([
    storageKeyFor(from),
    storageKeyFor(to),
    accountStorageKey(VAULT_MANIFEST_STORAGE_PREFIX, from),
    accountStorageKey(VAULT_MANIFEST_STORAGE_PREFIX, to),
  ]);
  if (fromKey === toKey) return;
  try {
    const manifest = window.localStorage.getItem(fromManifest);
    if (manifest !== null) window.localStorage.setItem(toManifest, manifest);
    window.localStorage.removeItem(fromManifest);
    const seen = read(fromKey);
    if (seen === 0) return;
    window.localStorage.setItem(toKey, JSON.stringify(Math.max(seen, read(toKey))));
    window.localStorage.removeItem(fromKey);
  } catch {
    // Nothing to move without storage.
  }
}

/** The account was deleted from this browser: its counter and manifest go. */
export async function forgetRememberedVaultCounter(username: string): Promise<void> {
  try {
    window.localStorage.removeItem(await storageKeyFor(username));
    window.localStorage.removeItem(await accountStorageKey(VAULT_MANIFEST_STORAGE_PREFIX, username));
  } catch {
    // Nothing to forget without storage.
  }
}
