import { formatVaultState, type VaultStateParts } from '@lockit/contract';
import { sealVaultState, sumOfElements, toBase64Url, verifyVaultState } from '@lockit/crypto';
import type { ResealedUnit } from './reseal';

type Elements = { before: Uint8Array; after: Uint8Array };

/** The vault's set as the rotation re-encrypted it: live entries, entries in Trash, folders. */
function setOf(resealed: readonly ResealedUnit[]) {
  const entries: Elements[] = [];
  const trashed: Elements[] = [];
  const folders: Elements[] = [];
  for (const unit of resealed) {
    if (unit.type === 'entry') (unit.trashed ? trashed : entries).push(unit.elements);
    if (unit.type === 'folder') folders.push(unit.elements);
  }
  return { entries, trashed, folders };
}

/**
 * Whether the vault the server served is the one its integrity state authenticates (decisions
 * 0053, 0061): the tag verifies under the old integrity key, and the counts and sum over the
 * served live entries, folders and (for a version 2 state) entries in Trash are the state's,
 * and its counter is no lower than the highest this browser saw for the account
 * (`remembered`). A vault with no state yet has nothing to check, unless this browser saw one
 * (then its absence is the lie).
 *
 * Security invariant: the rotation computes a fresh state over what it was served; without this
 * check a server that withheld, rolled back or resurrected an entry (or dropped one from Trash)
 * would have the rotation authenticate its lie under the new key.
 */
export async function servedVaultMatchesState(
  resealed: readonly ResealedUnit[],
  state: VaultStateParts | null,
  oldIntegrityKey: CryptoKey,
  remembered: number,
): Promise<boolean> {
  if (state === null) return remembered === 0;
  if (state.counter < remembered) return false;
  const set = setOf(resealed);
  // A version 1 state never covered Trash: only the live set is checked against it.
  const trashed = state.trashed === undefined ? [] : set.trashed;
  if (set.entries.length !== state.entries || set.folders.length !== state.folders) return false;
  if (trashed.length !== (state.trashed ?? 0)) return false;
  const served = [...set.entries, ...trashed, ...set.folders].map((e) => e.before);
  if (toBase64Url(sumOfElements(served)) !== state.sum) return false;
  return verifyVaultState(oldIntegrityKey, state);
}

/**
 * The re-encrypted vault's state, version 2: counter = the stored counter + 1 (1 when the vault
 * had none), the counts of live entries, entries in Trash and folders, and the sum of their
 * elements under the new integrity key at revision + 1 (the commit bumps every entry's and
 * folder's revision and keeps every trash time).
 */
export async function rotatedVaultState(
  resealed: readonly ResealedUnit[],
  storedCounter: number,
  newIntegrityKey: CryptoKey,
): Promise<string> {
  const set = setOf(resealed);
  const sealed = await sealVaultState(newIntegrityKey, {
    counter: storedCounter + 1,
    entries: set.entries.length,
    trashed: set.trashed.length,
    folders: set.folders.length,
    sum: sumOfElements([...set.entries, ...set.trashed, ...set.folders].map((e) => e.after)),
  });
  return formatVaultState(sealed);
}
