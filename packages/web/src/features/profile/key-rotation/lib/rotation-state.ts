import { formatVaultState, type VaultStateParts } from '@lockit/contract';
import { sealVaultState, sumOfElements, toBase64Url, verifyVaultState } from '@lockit/crypto';
import type { ResealedUnit } from './reseal';

type Elements = { before: Uint8Array; after: Uint8Array };

function liveSet(resealed: readonly ResealedUnit[]) {
  const entries: Elements[] = [];
  const folders: Elements[] = [];
  for (const unit of resealed) {
    if (unit.type === 'entry' && unit.elements) entries.push(unit.elements);
    if (unit.type === 'folder') folders.push(unit.elements);
  }
  return { entries, folders, all: [...entries, ...folders] };
}

/**
 * Whether the vault the server served is the one its integrity state authenticates (decision
 * 0053): the tag verifies under the old integrity key, and the counts and sum over the served
 * live entries and folders are the state's, and its counter is no lower than the highest this
 * browser saw for the account (`remembered`). A vault with no state yet has nothing to check,
 * unless this browser saw one (then its absence is the lie).
 *
 * Security invariant: the rotation computes a fresh state over what it was served; without this
 * check a server that withheld, rolled back or resurrected an entry would have the rotation
 * authenticate its lie under the new key.
 */
export async function servedVaultMatchesState(
  resealed: readonly ResealedUnit[],
  state: VaultStateParts | null,
  oldIntegrityKey: CryptoKey,
  remembered: number,
): Promise<boolean> {
  if (state === null) return remembered === 0;
  if (state.counter < remembered) return false;
  const live = liveSet(resealed);
  if (live.entries.length !== state.entries || live.folders.length !== state.folders) return false;
  if (toBase64Url(sumOfElements(live.all.map((e) => e.before))) !== state.sum) return false;
  return verifyVaultState(oldIntegrityKey, state);
}

/**
 * The re-encrypted vault's state: counter = the stored counter + 1 (1 when the vault had
 * none), the counts of live entries and folders, and the sum of their elements under the new
 * integrity key at revision + 1 (the commit bumps every entry's and folder's revision).
 */
export async function rotatedVaultState(
  resealed: readonly ResealedUnit[],
  storedCounter: number,
  newIntegrityKey: CryptoKey,
): Promise<string> {
  const live = liveSet(resealed);
  const sealed = await sealVaultState(newIntegrityKey, {
    counter: storedCounter + 1,
    entries: live.entries.length,
    folders: live.folders.length,
    sum: sumOfElements(live.all.map((e) => e.after)),
  });
  return formatVaultState(sealed);
}
