import { KdfParamsRejectedError, type KdfParams } from '@lockit/crypto';

/**
 * This browser's memory of the strongest key-derivation params it has used for each account,
 * so a server that answers a password change with success but keeps (or later serves again)
 * older, weaker params is caught at the next sign-in or Unlock instead of silently used.
 *
 * Security invariants:
 * - Only numbers are stored, none of them secret (the server keeps the same params). The
 *   entry's name holds a SHA-256 of the case-folded user name, never the name itself, so a
 *   look at this browser's storage does not list whose accounts were used here.
 * - The memory only ever rises: each of m, t and p is the highest this browser set (sign-up,
 *   password change) or saw verified (a vault key that unwrapped under them, which only
 *   someone holding the master password could have made).
 * - Without storage (private modes, storage cleared) nothing is remembered and nothing is
 *   refused: the policy floor of checkKdfParams still holds.
 */

const STORAGE_PREFIX = 'lockit.kdfFloor.';

type Strength = Pick<KdfParams, 'memoryKiB' | 'iterations' | 'parallelism'>;
const PARTS: ReadonlyArray<{ key: keyof Strength; label: string; unit: string }> = [
  { key: 'memoryKiB', label: 'memory', unit: ' KiB' },
  { key: 'iterations', label: 'passes', unit: '' },
  { key: 'parallelism', label: 'lanes', unit: '' },
];

/** Params weaker than this browser already used for the account: refused like a downgrade. */
export class RememberedKdfDowngradeError extends KdfParamsRejectedError {
  constructor(detail: string) {
    super(
      'below-floor',
      `The server asked for key-derivation settings weaker than the ones this browser already used for this account (${detail}). Sign-in was stopped to protect your password.`,
    );
  }
}

/**
 * The storage name of an account's memory under `prefix`: a SHA-256 of the name, never the
 * name. Account names are unique after NFKC and lower-casing (the server folds them the same way).
 */
export async function accountStorageKey(prefix: string, username: string): Promise<string> {
  const folded = new TextEncoder().encode(username.normalize('NFKC').toLowerCase());
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', folded));
  return prefix + Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const storageKeyFor = (username: string) => accountStorageKey(STORAGE_PREFIX, username);

/** Whether this browser remembers key-derivation params for `username` at all. */
export async function remembersKdfParams(username: string): Promise<boolean> {
  return read(await storageKeyFor(username)) !== null;
}

function read(key: string): Strength | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    const valid = PARTS.every(({ key: part }) => Number.isSafeInteger(value[part]) && (value[part] as number) > 0);
    return valid
      ? { memoryKiB: value.memoryKiB as number, iterations: value.iterations as number, parallelism: value.parallelism as number }
      : null;
  } catch {
    // Not ours or damaged: treated as no memory (the policy floor still applies).
    return null;
  }
}

function write(key: string, strength: Strength): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(strength));
  } catch {
    // Storage unavailable: this browser simply remembers nothing.
  }
}

/** Raises this browser's memory for `username` to at least `params`. */
export async function rememberKdfParams(username: string, params: KdfParams): Promise<void> {
  const key = await storageKeyFor(username);
  const known = read(key);
  write(key, {
    memoryKiB: Math.max(params.memoryKiB, known?.memoryKiB ?? 0),
    iterations: Math.max(params.iterations, known?.iterations ?? 0),
    parallelism: Math.max(params.parallelism, known?.parallelism ?? 0),
  });
}

/**
 * Throws RememberedKdfDowngradeError when `params` are lower in m, t or p than what this
 * browser already used for `username`. Call it before deriving anything from the password.
 */
export async function checkRememberedKdfParams(username: string, params: KdfParams): Promise<void> {
  const known = read(await storageKeyFor(username));
  if (!known) return;
  const weaker = PARTS.filter(({ key }) => params[key] < known[key]);
  if (weaker.length === 0) return;
  const detail = weaker
    .map(({ key, label, unit }) => `${label} ${params[key]}${unit}, this browser used ${known[key]}${unit}`)
    .join('; ');
  throw new RememberedKdfDowngradeError(detail);
}

/** After a rename the memory follows the account to its new name. */
export async function moveRememberedKdfParams(from: string, to: string): Promise<void> {
  const [fromKey, toKey] = await Promise.all([storageKeyFor(from), storageKeyFor(to)]);
  if (fromKey === toKey) return;
  const known = read(fromKey);
  if (!known) return;
  await rememberKdfParams(to, { algorithm: 'argon2id', ...known });
  try {
    window.localStorage.removeItem(fromKey);
  } catch {
    // Nothing to clean up without storage.
  }
}

/** The account was deleted from this browser: its name may be someone else's next. */
export async function forgetRememberedKdfParams(username: string): Promise<void> {
  const key = await storageKeyFor(username);
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to forget without storage.
  }
}
