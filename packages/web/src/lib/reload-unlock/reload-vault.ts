import {
  aesGcmEncrypt,
  checkKdfParams,
  deriveVaultIntegrityKeyFromHkdf,
  formatCiphertext,
  parseCiphertext,
} from '@lockit/crypto';
import { parseAccountRef } from '@lockit/client-core';
import { z } from 'zod';
import type { ReloadSeal, UnlockedVault } from '../keyring';
import {
  readReloadRecord,
  reloadRecordId,
  removeReloadRecord,
  takeTabLeft,
  writeReloadRecord,
  type TabKeyStore,
} from './tab-session';

/**
 * How soon after this tab left a page the next page load must start to count as a reload (or
 * an address typed in the same tab). Measured from the navigation's start, so a slow network
 * does not stretch it. Longer, or a tab reopened after it was closed (browsers restore its
 * sessionStorage), asks for the master password: closing the tab locks the vault.
 */
export const RELOAD_GAP_MS = 10_000;

/**
 * Tab keys untouched for this long belong to tabs closed without locking: the longest idle
 * lock (60 minutes) has passed for them, so they can never open anything again. A tab that
 * stays in use touches its key every few minutes (use-reload-unlock.ts).
 */
export const ORPHAN_AFTER_MS = 70 * 60_000;

const AES_GCM_IV_BYTES = 12;

/** The wrap's associated data: a wrapped key opens only under the tab key of the same id. */
const wrapAad = (id: string) => new TextEncoder().encode(`lockit/v1/reload-vault-key|tab=${id}`);

const recordSchema = z.object({
  v: z.literal(1),
  id: z.uuid(),
  wrappedKey: z.string().max(200),
  username: z.string().max(200),
  // This browser's ref of the account (a record from before it had one is not restored).
  account: z.string().max(100),
  kdf: z.unknown(),
  salt: z.string().max(200),
  protectedKey: z.string().max(500),
  keyGeneration: z.number().int().min(0).optional(),
  keyEpoch: z.number().int().min(0).optional(),
});

/**
 * Made at every unlock, while the vault key's bytes are at hand (they are wiped right after):
 * a fresh NON-extractable AES-256-GCM tab key, and the vault key wrapped under it. Nothing is
 * stored here; reload-unlock stores it only while "Lock on every reload" is off.
 */
export async function sealForReload(vaultKeyBytes: Uint8Array): Promise<ReloadSeal | undefined> {
  try {
    const id = crypto.randomUUID();
    const tabKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'unwrapKey']);
    const iv = crypto.getRandomValues(new Uint8Array(AES_GCM_IV_BYTES));
    const wrappedKey = formatCiphertext(iv, await aesGcmEncrypt(tabKey, iv, vaultKeyBytes, wrapAad(id)));
    return { id, tabKey, wrappedKey };
  } catch {
    // No seal, no reload-unlock: the vault still opens, and a reload asks for the password.
    return undefined;
  }
}

/** The sessionStorage record of an unlocked vault with a seal. No key bytes, only the wrapped copy. */
export function reloadRecordText(vault: UnlockedVault, seal: ReloadSeal): string {
  return JSON.stringify({
    v: 1,
    id: seal.id,
    wrappedKey: seal.wrappedKey,
    username: vault.username,
    account: vault.account,
    kdf: vault.kdf,
    salt: vault.salt,
    protectedKey: vault.protectedKey,
    keyGeneration: vault.keyGeneration,
    keyEpoch: vault.keyEpoch,
  } satisfies z.input<typeof recordSchema>);
}

/** Stores the seal's tab key and the record; sweeps the keys of tabs closed long ago. */
export async function persistSeal(store: TabKeyStore, vault: UnlockedVault, seal: ReloadSeal, now = Date.now()): Promise<void> {
  if (!writeReloadRecord(reloadRecordText(vault, seal))) return;
  await store.put(seal.id, seal.tabKey, now);
  await store.sweep(now - ORPHAN_AFTER_MS);
}

export interface RestoreContext {
  store: TabKeyStore;
  /** When this page load's navigation started, on Date.now()'s clock. */
  pageStartedAt: number;
  /** The idle lock's limit now in force. */
  autoLockMs: number;
  now?: number;
}

/**
 * Opens the vault this tab kept for a reload, or answers null and forgets it. It opens only
 * when all hold: the record and this tab's "left" note are there and well formed; the page
 * load began within RELOAD_GAP_MS of the tab leaving; the person was active within the idle
 * lock's limit; the tab key is in IndexedDB and the wrap verifies under it. The vault key is
 * unwrapped straight into a NON-extractable CryptoKey: its bytes never reach script.
 */
export async function restoreFromReload(context: RestoreContext): Promise<UnlockedVault | null> {
  const { store, pageStartedAt, autoLockMs, now = Date.now() } = context;
  const left = takeTabLeft();
  const parsed = recordSchema.safeParse(safeJson(readReloadRecord()));
  const record = parsed.success ? parsed.data : null;
  const fresh = left !== null && pageStartedAt - left.leftAt <= RELOAD_GAP_MS && now - left.activeAt < autoLockMs;
  const vault = record && fresh ? await open(store, record, now).catch(() => null) : null;
  // Whatever does not open is forgotten at once: its tab key too, so none is left behind.
  if (!vault) await forgetReload(store, record?.id ?? reloadRecordId());
  return vault;
}

async function open(store: TabKeyStore, record: z.infer<typeof recordSchema>, now: number): Promise<UnlockedVault | null> {
  const account = parseAccountRef(record.account);
  const tabKey = await store.get(record.id);
  if (!tabKey || !account) return null;
  const { iv, data } = parseCiphertext(record.wrappedKey);
  const unwrap = (algorithm: AesKeyAlgorithm | 'HKDF', usages: KeyUsage[]) =>
    crypto.subtle.unwrapKey(
      'raw',
      data as Uint8Array<ArrayBuffer>,
      tabKey,
      { name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer>, additionalData: wrapAad(record.id) },
      algorithm,
      false,
      usages,
    );
  const vaultKey = await unwrap({ name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt']);
  // The same bytes once more, as a non-extractable HKDF key: the integrity key is derived from
  // them (decision 0053) without the bytes ever reaching script.
  const integrityKey = await deriveVaultIntegrityKeyFromHkdf(await unwrap('HKDF', ['deriveKey']));
  await store.put(record.id, tabKey, now);
  void store.sweep(now - ORPHAN_AFTER_MS).catch(() => undefined);
  return {
    username: record.username,
    account,
    vaultKey,
    integrityKey,
    // This tab's own record of params that already opened the vault: the old floor is theirs to keep until re-wrapped.
    kdf: checkKdfParams(record.kdf, { legacyFloor: true }),
    salt: record.salt,
    protectedKey: record.protectedKey,
    keyGeneration: record.keyGeneration,
    keyEpoch: record.keyEpoch,
    reloadSeal: { id: record.id, tabKey, wrappedKey: record.wrappedKey },
  };
}

/** Removes this tab's record and its tab key. Safe to call when there is none. */
export async function forgetReload(store: TabKeyStore | undefined, id: string | undefined): Promise<void> {
  removeReloadRecord();
  if (store && id) await store.delete(id).catch(() => undefined);
}

function safeJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
