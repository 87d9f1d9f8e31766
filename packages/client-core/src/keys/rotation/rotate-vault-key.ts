import { deriveVaultIntegrityKey, generateVaultKeyBytes, importVaultKey, wrapVaultKey, type KdfParams } from '@lockit/crypto';
import type { AccountRef } from '../../device-memory/account-ref';
import type { DeviceMemory } from '../../device-memory/device-memory';
import type { ApiClient } from '../../http/api-client';
import { ApiError, serverMessageOf } from '../../http/api-errors';
import { readVaultForRotation } from './read-vault';
import type { ResealKeys } from './reseal';
import { resealAll, type ResealPool } from './reseal-all';
import { rotationParts } from './rotation-parts';
import { rotatedVaultState, servedVaultMatchesState } from './rotation-state';
import { resealShareLabels } from './share-label-reseal';

export type RotationProgress =
  | { step: 'reading' }
  | { step: 're-encrypting'; done: number; total: number }
  | { step: 'saving'; done: number; total: number }
  | { step: 'switching' };

/**
 * The rotation stopped before its commit: the server's vault, and this client's, are as they
 * were. `message` is a sentence for the person.
 */
export class RotationStoppedError extends Error {
  override readonly name = 'RotationStoppedError';
}

/** The commit got no clear answer and the server could not be asked whether it happened. */
export class RotationOutcomeUnknownError extends Error {
  override readonly name = 'RotationOutcomeUnknownError';
}

/** What the server answered to the commit. */
export interface RotationCommitted {
  keyGeneration: number;
  vaultRevision: number;
  passkeyUnlocksRemoved: number;
  sessionsEnded: number;
}

/** The rotation's platform: the API, this device's memory and, where it has workers, a re-encryption pool. */
export interface RotationPlatform {
  api: ApiClient;
  deviceMemory: Pick<DeviceMemory, 'vaultCounter' | 'rememberKeyGeneration' | 'rememberKeyEpoch'>;
  /** Workers running serveResealJobs; absent: the re-encryption runs where the rotation does. */
  resealPool?: ResealPool | undefined;
}

/** The unlocked vault a rotation starts from: its keys open what the server holds. */
export interface RotatingVault {
  account: AccountRef;
  vaultKey: CryptoKey;
  integrityKey: CryptoKey;
  kdf: KdfParams;
  salt: string;
  keyGeneration?: number | undefined;
  keyEpoch?: number | undefined;
}

export interface RotationInput<Kept> {
  /** The client's unlocked vault when the rotation began. */
  vault: RotatingVault;
  /** From the master password typed again: proves the person to the server (authKey) and wraps the new key (wrapKey). */
  authKey: string;
  wrapKey: CryptoKey;
  onProgress: (progress: RotationProgress) => void;
  /**
   * What the client keeps of the new key's bytes (the web app: its seal for a reload), made
   * before the bytes are wiped. Called once, before anything is sent.
   */
  keepNewKey?: (bytes: Uint8Array) => Promise<Kept>;
}

export interface RotationDone<Kept> {
  /** The keys the client must hold from now on: the new keys, wrapped key, generation and epoch. */
  keys: {
    vaultKey: CryptoKey;
    integrityKey: CryptoKey;
    protectedKey: string;
    keyGeneration: number;
    keyEpoch: number;
  };
  /** keepNewKey's result (undefined without one). */
  kept: Kept | undefined;
  /** The server's answer; null when the commit's answer was lost and the key material showed it happened. */
  committed: RotationCommitted | null;
}

/** Parts on the wire at once: the server parses one while the next travels. */
const PARTS_IN_FLIGHT = 2;

const plural = (count: number, one: string) => `${count.toLocaleString('en-US')} ${one}${count === 1 ? '' : 's'}`;

/**
 * Rotates the vault key (decision 0054): reads the whole vault, re-encrypts every entry,
 * version, folder and account document under a new random key and re-wraps every file's key
 * (decision 0071: the files' contents stay as they are) (in workers), checks nothing
 * is damaged and the served vault is the one its integrity state authenticates, then starts
 * the rotation on the server, stages the parts, and commits the new wrapped key with the new
 * integrity state in one transaction.
 *
 * Security invariants:
 * - Nothing the vault uses changes before the commit: any failure before it (RotationStoppedError
 *   or a call's error) leaves the server's vault and this client's keys as they were.
 * - The new key's bytes exist only until it is imported, wrapped under the password's wrap key
 *   (generation + 1) and kept by keepNewKey; they are wiped before any re-encryption starts.
 * - The commit is applied to this client only once the server said yes (or, after no clear
 *   answer, its key material shows the new wrapped key); then the new generation and key epoch
 *   are remembered, so this browser refuses any wrap of the old key from then on.
 */
export async function rotateVaultKey<Kept = undefined>(
  platform: RotationPlatform,
  { vault, authKey, wrapKey, onProgress, keepNewKey }: RotationInput<Kept>,
): Promise<RotationDone<Kept>> {
  const { api, deviceMemory } = platform;
  onProgress({ step: 'reading' });
  const snapshot = await readVaultForRotation(api);
  const generation = (vault.keyGeneration ?? 0) + 1;
  // A new vault key: the next epoch, which every wrap of it binds (passkeys' unlock keys of the
  // old key, bound to the old epoch, are refused by a browser that saw this one).
  const keyEpoch = (vault.keyEpoch ?? 0) + 1;

  const bytes = generateVaultKeyBytes();
  let newKey: CryptoKey, newIntegrityKey: CryptoKey, protectedKey: string, kept: Kept | undefined;
  try {
    [newKey, newIntegrityKey, protectedKey, kept] = await Promise.all([
      importVaultKey(bytes),
      deriveVaultIntegrityKey(bytes),
      wrapVaultKey(bytes, wrapKey, vault.kdf, vault.salt, generation, keyEpoch),
      keepNewKey?.(bytes),
    ]);
  } finally {
    bytes.fill(0);
  }

  const keys: ResealKeys = { oldKey: vault.vaultKey, newKey, oldIntegrityKey: vault.integrityKey, newIntegrityKey };
  const total = snapshot.units.length;
  onProgress({ step: 're-encrypting', done: 0, total });
  const resealed = await resealAll(
    keys,
    snapshot.units,
    (done) => onProgress({ step: 're-encrypting', done, total }),
    platform.resealPool,
  );
  const damaged = snapshot.malformed + resealed.filter((unit) => unit.type === 'damaged').length;
  if (damaged > 0) {
    throw new RotationStoppedError(
      `${plural(damaged, 'item')} could not be opened; fix or delete ${damaged === 1 ? 'it' : 'them'} first.`,
    );
  }
  const remembered = await deviceMemory.vaultCounter(vault.account);
  if (!(await servedVaultMatchesState(resealed, snapshot.state, vault.integrityKey, remembered))) {
    throw new RotationStoppedError(
      "The server's copy of your vault is older or incomplete, so Lockit will not rotate the key on top of it. Open your vault to see what is wrong.",
    );
  }
  const vaultState = await rotatedVaultState(resealed, snapshot.state?.counter ?? 0, newIntegrityKey);

  const { data: started } = await api.call('start-key-rotation', { body: { authKey, vaultRevision: snapshot.vaultRevision } });
  if (started.keyGeneration !== generation - 1) {
    throw new RotationStoppedError('Your master password was changed on another device. Reload Lockit and try again.');
  }
  await uploadParts(api, started.id, rotationParts(resealed), total, onProgress);

  onProgress({ step: 'switching' });
  const committed = await commit(api, started.id, { protectedKey, keyGeneration: generation, keyEpoch, vaultState });
  await deviceMemory.rememberKeyGeneration(vault.account, generation);
  await deviceMemory.rememberKeyEpoch(vault.account, keyEpoch);
  // The vault is rotated whatever happens here: a label not moved only reads as unreadable.
  await resealShareLabels(api, vault.vaultKey, newKey).catch(() => 0);
  return {
    keys: { vaultKey: newKey, integrityKey: newIntegrityKey, protectedKey, keyGeneration: generation, keyEpoch },
    kept,
    committed,
  };
}

async function uploadParts(
  api: ApiClient,
  rotationId: string,
  parts: ReturnType<typeof rotationParts>,
  total: number,
  onProgress: (progress: RotationProgress) => void,
): Promise<void> {
  let next = 0;
  let done = 0;
  let failed = false;
  onProgress({ step: 'saving', done, total });
  const sender = async () => {
    while (next < parts.length && !failed) {
      const { part, items } = parts[next++]!;
      try {
        await api.call('stage-key-rotation-part', { params: { id: rotationId }, body: part });
      } catch (error) {
        failed = true;
        throw error;
      }
      done += items;
      onProgress({ step: 'saving', done, total });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, parts.length) }, sender));
}

/**
 * The commit. A refusal (4xx) changed nothing. Without a clear answer (no network, 5xx, an
 * answer Lockit cannot read) the transaction may have happened: the account's key material
 * tells, as it holds the new wrapped key only if it did.
 */
async function commit(
  api: ApiClient,
  rotationId: string,
  body: { protectedKey: string; keyGeneration: number; keyEpoch: number; vaultState: string },
): Promise<RotationCommitted | null> {
  try {
    return (await api.call('commit-key-rotation', { params: { id: rotationId }, body })).data;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      throw new RotationStoppedError(serverMessageOf(error) ?? 'The server did not accept the new key.');
    }
    let material;
    try {
      material = (await api.call('key-material', {})).data;
    } catch {
      throw new RotationOutcomeUnknownError('Lockit could not confirm whether your encryption key was rotated.');
    }
    if (material.protectedKey !== body.protectedKey) throw error;
    return null;
  }
}
