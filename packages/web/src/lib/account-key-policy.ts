import {
  checkKdfFitsDevice,
  checkKdfParams,
  deviceKdfCeiling,
  KdfParamsRejectedError,
  MAX_KEY_GENERATION,
  type DeviceProfile,
  type KdfParams,
} from '@lockit/crypto';
import { checkRememberedKdfParams, remembersKdfParams } from './kdf-memory';
import { checkRememberedKeyGeneration } from './key-generation-memory';

/** The server's key settings for an account, once they passed every check of this browser. */
export interface CheckedKeySettings {
  kdf: KdfParams;
  keyGeneration: number;
  /**
   * The params are below today's floor (the defaults) but no weaker than this browser already
   * used for the account: allowed once, and the caller re-wraps under the defaults.
   */
  belowFloor: boolean;
}

/**
 * Every check of the server's key settings (prelogin or key-material) before anything is
 * derived from the password, in one place for sign-in, Unlock and passkey sign-in.
 *
 * Security invariants:
 * - Params must pass the policy: the floor is the defaults (m = 64 MiB, t = 3). Params down to
 *   the old floor (19 MiB, t = 2) pass only for an account this browser remembers, and only
 *   if no weaker than it remembers: a new browser never derives below the defaults.
 * - Params must fit this device (deviceKdfCeiling): refused with a message, never a frozen tab.
 * - The key generation must be no lower than the highest this browser saw for the account.
 * Throws KdfParamsRejectedError (or its KeyGenerationRolledBackError) with a readable message.
 */
export async function checkServerKeySettings(
  username: string,
  answer: { kdf: unknown; keyGeneration?: unknown },
  device: DeviceProfile = currentDevice(),
): Promise<CheckedKeySettings> {
  // The old floor only for an account this browser already used (it remembers its params).
  const known = username !== '' && (await remembersKdfParams(username));
  const kdf = checkWithFloor(answer.kdf, known);
  const belowFloor = !meetsFloor(kdf);
  if (username) await checkRememberedKdfParams(username, kdf);
  checkKdfFitsDevice(kdf, deviceKdfCeiling(device));
  const keyGeneration = readKeyGeneration(answer.keyGeneration);
  if (username) await checkRememberedKeyGeneration(username, keyGeneration);
  return { kdf, keyGeneration, belowFloor };
}

/** Below even the old floor, the refusal names today's floor, as on a new browser. */
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

interface NavigatorHints {
  deviceMemory?: number;
  userAgentData?: { mobile?: boolean };
}

/** What this browser tells about its device: navigator.deviceMemory and whether it is a phone or tablet. */
export function currentDevice(): DeviceProfile {
  if (typeof navigator === 'undefined') return { mobile: false };
  const hints = navigator as Navigator & NavigatorHints;
  const mobile = hints.userAgentData?.mobile ?? /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent);
  return { memoryGiB: hints.deviceMemory, mobile };
}
