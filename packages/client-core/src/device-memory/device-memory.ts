import { KdfParamsRejectedError, KeyEpochRolledBackError, KeyGenerationRolledBackError, type KdfParams } from '@lockit/crypto';
import type { KeyValueStore } from '../platform/key-value-store';
import { accountRefOf, parseAccountRef, type AccountRef } from './account-ref';

/**
 * One device's anti-rollback memory of its accounts: the strongest KDF params it used, the
 * highest key generation, key epoch and vault counter it saw, and the sealed manifest of the vault, each
 * under an AccountRef; plus which account this device's session belongs to.
 *
 * Security invariants:
 * - Every entry is keyed by an AccountRef, which only a name the person gave makes
 *   (account-ref.ts): nothing the server answers chooses where the device looks.
 * - Numbers only ever rise, and only after the server's data proved them (a vault key that
 *   unwrapped under them, a state verified under the integrity key) or this device made them.
 * - Only numbers, digests and a ciphertext are stored: what the server keeps too.
 * - Damaged or foreign values read as no memory; a store that cannot write remembers less.
 *   With no memory nothing is refused beyond what a new device refuses.
 */
export class DeviceMemory {
  constructor(private readonly store: KeyValueStore) {}

  // --- the session's account -------------------------------------------------------------

  /** This device's session belongs to `account` (set at sign-in, from the name the person typed). */
  async bindSession(account: AccountRef): Promise<void> {
    await this.store.set(SESSION_ACCOUNT, account);
  }

  /** The account this device signed its session in as, or null when it never did (or forgot). */
  async sessionAccount(): Promise<AccountRef | null> {
    return parseAccountRef(await this.store.get(SESSION_ACCOUNT));
  }

  /**
   * The session's account for an Unlock, a password change or a passkey added: what sign-in
   * bound here, never the server's word. Throws UnknownSessionAccountError when there is none.
   */
  async requireSessionAccount(): Promise<AccountRef> {
    const account = await this.sessionAccount();
    if (account === null) throw new UnknownSessionAccountError();
    return account;
  }

  async unbindSession(): Promise<void> {
    await this.store.remove(SESSION_ACCOUNT);
  }

  /**
   * Passkey sign-in has no typed name: the account a passkey's user handle (given by the
   * AUTHENTICATOR, not the server) belongs to is remembered here whenever this device learns it
   * from a typed name, so a passkey sign-in finds the same memory as a password sign-in.
   */
  async rememberUserHandle(userId: string, account: AccountRef): Promise<void> {
    await this.store.set(await userHandleKey(userId), account);
  }

  async accountOfUserHandle(userId: string): Promise<AccountRef | null> {
    return parseAccountRef(await this.store.get(await userHandleKey(userId)));
  }

  // --- KDF params ------------------------------------------------------------------------

  async remembersKdfParams(account: AccountRef): Promise<boolean> {
    return (await this.#kdfStrength(account)) !== null;
  }

  /** Raises the memory for `account` to at least `params`, part by part. */
  async rememberKdfParams(account: AccountRef, params: KdfStrength): Promise<void> {
    const known = await this.#kdfStrength(account);
    const next: KdfStrength = {
      memoryKiB: Math.max(params.memoryKiB, known?.memoryKiB ?? 0),
      iterations: Math.max(params.iterations, known?.iterations ?? 0),
      parallelism: Math.max(params.parallelism, known?.parallelism ?? 0),
    };
    await this.store.set(KDF + account, JSON.stringify(next));
  }

  /**
   * Throws RememberedKdfDowngradeError when `params` are lower in m, t or p than this device
   * already used for `account`. Call it before deriving anything from the password.
   */
  async checkKdfParams(account: AccountRef, params: KdfParams): Promise<void> {
    const known = await this.#kdfStrength(account);
    if (!known) return;
    const weaker = KDF_PARTS.filter(({ key }) => params[key] < known[key]);
    if (weaker.length === 0) return;
    const detail = weaker
      .map(({ key, label, unit }) => `${label} ${params[key]}${unit}, this browser used ${known[key]}${unit}`)
      .join('; ');
    throw new RememberedKdfDowngradeError(detail);
  }

  async #kdfStrength(account: AccountRef): Promise<KdfStrength | null> {
    const value = parseJson(await this.store.get(KDF + account)) as Record<string, unknown> | null;
    if (value === null || typeof value !== 'object') return null;
    const valid = KDF_PARTS.every(({ key }) => Number.isSafeInteger(value[key]) && (value[key] as number) > 0);
    return valid
      ? { memoryKiB: value.memoryKiB as number, iterations: value.iterations as number, parallelism: value.parallelism as number }
      : null;
  }

  // --- key generation --------------------------------------------------------------------

  async rememberKeyGeneration(account: AccountRef, generation: number): Promise<void> {
    const seen = await this.#count(KEY_GENERATION + account);
    await this.store.set(KEY_GENERATION + account, JSON.stringify(Math.max(generation, seen ?? 0)));
  }

  /** Throws KeyGenerationRolledBackError when `generation` is lower than this device saw. */
  async checkKeyGeneration(account: AccountRef, generation: number): Promise<void> {
    const seen = await this.#count(KEY_GENERATION + account);
    if (seen !== null && generation < seen) throw new KeyGenerationRolledBackError(generation, seen);
  }

  // --- key epoch ------------------------------------------------------------------------

  /**
   * Raises the highest key epoch seen for `account`: call it only once a wrap opened under that
   * epoch (its associated data binds it) or this device made the key of that epoch (a rotation).
   */
  async rememberKeyEpoch(account: AccountRef, epoch: number): Promise<void> {
    const seen = await this.#count(KEY_EPOCH + account);
    await this.store.set(KEY_EPOCH + account, JSON.stringify(Math.max(epoch, seen ?? 0)));
  }

  /**
   * Throws KeyEpochRolledBackError when `epoch` is lower than this device saw: the wrap is of a
   * vault key a rotation replaced. Call it before unwrapping anything.
   */
  async checkKeyEpoch(account: AccountRef, epoch: number): Promise<void> {
    const seen = await this.#count(KEY_EPOCH + account);
    if (seen !== null && epoch < seen) throw new KeyEpochRolledBackError(epoch, seen);
  }

  // --- vault counter and manifest --------------------------------------------------------

  /** The highest vault state counter this device saw for `account`; 0 when none. */
  async vaultCounter(account: AccountRef): Promise<number> {
    return (await this.#count(VAULT_COUNTER + account)) ?? 0;
  }

  async rememberVaultCounter(account: AccountRef, counter: number): Promise<void> {
    const next = Math.max(counter, await this.vaultCounter(account));
    await this.store.set(VAULT_COUNTER + account, JSON.stringify(next));
  }

  /**
   * The one way the counter goes down: the person chose, knowing what is lost, to take the
   * server's older copy of the vault (an operator restored a backup). Only the very counter the
   * person was shown is accepted (0: a vault with no state at all), so a server that meanwhile
   * serves an even older copy is caught again. The sealed manifest goes with the newer copy.
   */
  async acceptOlderVault(account: AccountRef, shownCounter: number): Promise<void> {
    if (!Number.isSafeInteger(shownCounter) || shownCounter < 0) throw new RangeError('A vault counter is a whole number.');
    await this.store.set(VAULT_COUNTER + account, JSON.stringify(shownCounter));
    await this.store.remove(VAULT_MANIFEST + account);
  }

  /** The sealed manifest (a ciphertext under the vault key), or null. */
  async sealedManifest(account: AccountRef): Promise<string | null> {
    return this.store.get(VAULT_MANIFEST + account);
  }

  async saveSealedManifest(account: AccountRef, sealed: string): Promise<void> {
    await this.store.set(VAULT_MANIFEST + account, sealed);
  }

  // --- account documents ---------------------------------------------------------------

  /** The highest revision sealed inside a document of `kind` this device opened or wrote; 0 when none. */
  async documentRevision(account: AccountRef, kind: string): Promise<number> {
    return (await this.#documentRevisions(account))[kind] ?? 0;
  }

  async rememberDocumentRevision(account: AccountRef, kind: string, revision: number): Promise<void> {
    const revisions = await this.#documentRevisions(account);
    revisions[kind] = Math.max(revision, revisions[kind] ?? 0);
    await this.store.set(DOCUMENT_REVISIONS + account, JSON.stringify(revisions));
  }

  /** Kind -> revision; damaged or foreign values read as none. */
  async #documentRevisions(account: AccountRef): Promise<Record<string, number>> {
    const value = parseJson(await this.store.get(DOCUMENT_REVISIONS + account));
    const revisions: Record<string, number> = Object.create(null) as Record<string, number>;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return revisions;
    for (const [kind, revision] of Object.entries(value))
      if (Number.isSafeInteger(revision) && (revision as number) >= 0) revisions[kind] = revision as number;
    return revisions;
  }

  // --- the account as a whole ------------------------------------------------------------

  /**
   * After a rename the person made on this device, the memory follows the account to the new
   * name, merged with any memory already under it (the higher of each), and the session with it.
   */
  async moveAccount(from: AccountRef, to: AccountRef): Promise<void> {
    if (from === to) return;
    const kdf = await this.#kdfStrength(from);
    if (kdf) await this.rememberKdfParams(to, kdf);
    const generation = await this.#count(KEY_GENERATION + from);
    if (generation !== null) await this.rememberKeyGeneration(to, generation);
    const epoch = await this.#count(KEY_EPOCH + from);
    if (epoch !== null) await this.rememberKeyEpoch(to, epoch);
    const counter = await this.vaultCounter(from);
    if (counter > 0) await this.rememberVaultCounter(to, counter);
    const manifest = await this.sealedManifest(from);
    if (manifest !== null) await this.saveSealedManifest(to, manifest);
    for (const [kind, revision] of Object.entries(await this.#documentRevisions(from)))
      await this.rememberDocumentRevision(to, kind, revision);
    await this.#removeAll(from);
    if ((await this.sessionAccount()) === from) await this.bindSession(to);
  }

  /** The account was deleted: its name is free for a new account, whose first key is no rollback. */
  async forgetAccount(account: AccountRef): Promise<void> {
    await this.#removeAll(account);
    if ((await this.sessionAccount()) === account) await this.unbindSession();
  }

  async #removeAll(account: AccountRef): Promise<void> {
    const prefixes = [KDF, KEY_GENERATION, KEY_EPOCH, VAULT_COUNTER, VAULT_MANIFEST, DOCUMENT_REVISIONS];
    await Promise.all(prefixes.map((prefix) => this.store.remove(prefix + account)));
  }

  async #count(key: string): Promise<number | null> {
    const value = parseJson(await this.store.get(key));
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
  }
}

/**
 * This device has no record of which account its session belongs to (it has not signed in here
 * since the record began, or its storage was cleared): the server's word cannot stand in for
 * it, so the person signs in again and types the name.
 */
export class UnknownSessionAccountError extends Error {
  override readonly name = 'UnknownSessionAccountError';
  constructor() {
    super('This browser does not know which account this session belongs to. Log out, then sign in again to unlock.');
  }
}

/** Params weaker than this device already used for the account: refused like a downgrade. */
export class RememberedKdfDowngradeError extends KdfParamsRejectedError {
  constructor(detail: string) {
    super(
      'below-floor',
      `The server asked for key-derivation settings weaker than the ones this browser already used for this account (${detail}). Sign-in was stopped to protect your password.`,
    );
  }
}

export type KdfStrength = Pick<KdfParams, 'memoryKiB' | 'iterations' | 'parallelism'>;

const KDF_PARTS: ReadonlyArray<{ key: keyof KdfStrength; label: string; unit: string }> = [
  { key: 'memoryKiB', label: 'memory', unit: ' KiB' },
  { key: 'iterations', label: 'passes', unit: '' },
  { key: 'parallelism', label: 'lanes', unit: '' },
];

// The names the web app has used since these memories began, so a browser keeps what it knew.
const KDF = 'lockit.kdfFloor.';
const KEY_GENERATION = 'lockit.keyGeneration.';
const KEY_EPOCH = 'lockit.keyEpoch.';
const VAULT_COUNTER = 'lockit.vaultCounter.';
const VAULT_MANIFEST = 'lockit.vaultManifest.';
const SESSION_ACCOUNT = 'lockit.sessionAccount';
const DOCUMENT_REVISIONS = 'lockit.documentRevisions.';
const USER_HANDLE = 'lockit.passkeyAccount.';

/** A user handle is an account id: stored as a digest, like the names. */
async function userHandleKey(userId: string): Promise<string> {
  return USER_HANDLE + (await accountRefOf(`user-handle:${userId}`));
}

function parseJson(raw: string | null): unknown {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
