import {
  checkKdfFitsDevice,
  checkKeyEpoch,
  checkKdfParams,
  deviceKdfCeiling,
  KdfParamsRejectedError,
  MAX_KEY_GENERATION,
  type DeviceProfile,
  type KdfParams,
} from '@lockit/crypto';
import type { AccountRef } from '../device-memory/account-ref';
import type { DeviceMemory } from '../device-memory/device-memory';

/** The server's key settings for an account, once they passed every check of this device. */
export interface CheckedKeySettings {
  kdf: KdfParams;
  keyGeneration: number;
  /**
   * The params are below today's floor (the defaults) but no weaker than this device already
   * used for the account: allowed once, and the caller re-wraps under the defaults.
   */
  belowFloor: boolean;
}

/**
 * Every check of the server's key settings (prelogin or key material) before anything is
 * derived from the password, for sign-in, Unlock, passkey sign-in and password change alike.
 *
 * Security invariants:
 * - Params must pass the policy: the floor is the defaults (m = 64 MiB, t = 3). Params down to
 *   the old floor (19 MiB, t = 2) pass only for an account this device remembers, and only if
 *   no weaker than it remembers: a new device never derives below the defaults.
 * - Params must fit this device (deviceKdfCeiling): refused with a message, never a frozen tab.
 * - The key generation must be no lower than the highest this device saw for the account.
 * - `account` is this device's ref of the account (account-ref.ts), never made from a name the
 *   server answered; null (no name known at all) checks against no memory.
 * Throws KdfParamsRejectedError (or its KeyGenerationRolledBackError) with a readable message.
 */
export async function checkServerKeySettings(
  memory: DeviceMemory,
  account: AccountRef | null,
  answer: { kdf: unknown; keyGeneration?: unknown },
  device: DeviceProfile,
): Promise<CheckedKeySettings> {
  const known = account !== null && (await memory.remembersKdfParams(account));
  const kdf = checkWithFloor(answer.kdf, known);
  const belowFloor = !meetsFloor(kdf);
  if (account) await memory.checkKdfParams(account, kdf);
  checkKdfFitsDevice(kdf, deviceKdfCeiling(device));
  const keyGeneration = readKeyGeneration(answer.keyGeneration);
  if (account) await memory.checkKeyGeneration(account, keyGeneration);
  return { kdf, keyGeneration, belowFloor };
}

/**
 * The key epoch an answer names for the wrapped vault key it carries (key material, a sign-in
 * answer): which vault key, counted by rotations, the wrap must hold. Check it before anything is
 * unwrapped, and unwrap with it (the wrap's associated data binds it).
 *
 * Security invariants:
 * - An answer without one is epoch 0, the epoch of every wrap made before epochs existed: a server
 *   that leaves it out claims the oldest key, it does not skip the check.
 * - The epoch must be no lower than the highest this device saw for `account` (this device's ref,
 *   never made from a server's name): a wrap of a key a rotation replaced is refused, whichever
 *   wrap (password or passkey) carries it. A higher one is only a claim until a wrap opens under it.
 * Throws KeyEpochRolledBackError, or KdfParamsRejectedError ('malformed') for an unreadable epoch.
 */
export async function checkServerKeyEpoch(
  memory: DeviceMemory,
  account: AccountRef | null,
  answer: { keyEpoch?: unknown },
): Promise<number> {
  let epoch: number;
  try {
    epoch = checkKeyEpoch(answer.keyEpoch === undefined ? 0 : answer.keyEpoch);
  } catch {
    // Refused like every unreadable key setting, so each screen that shows those says it.
    throw new KdfParamsRejectedError('malformed', 'The server sent a key epoch Lockit cannot read, so your vault stays locked.');
  }
  if (account) await memory.checkKeyEpoch(account, epoch);
  return epoch;
}

/** Below even the old floor, the refusal names today's floor, as on a new device. */
function checkWithFloor(raw: unknown, legacyFloor: boolean): KdfParams {
  try {
    return checkKdfParams(raw, { legacyFloor });
  } catch (error) {
    if (legacyFloor && error instanceof KdfParamsRejectedError && error.reason === 'below-floor') checkKdfParams(raw);
    throw error;
  }
}

function meetsFloor(kdf: KdfParams): boolean {
  try {
    checkKdfParams(kdf);
    return true;
  } catch {
    return false;
  }
}

/** Absent in answers from before key generations: generation 0, the generation of every older wrap. */
function readKeyGeneration(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_KEY_GENERATION) return value;
  throw new KdfParamsRejectedError(
    'malformed',
    'The server sent a key generation Lockit cannot read. Sign-in was stopped to protect your password.',
  );
}
