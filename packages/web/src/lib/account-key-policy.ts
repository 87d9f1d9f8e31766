import {
  checkServerKeyEpoch as checkEpochWithMemory,
  checkServerKeySettings as checkWithMemory,
  type AccountRef,
  type CheckedKeySettings,
} from '@lockit/client-core';
import type { DeviceProfile } from '@lockit/crypto';
import { deviceMemory } from './device-memory';

export type { CheckedKeySettings } from '@lockit/client-core';

/**
 * The client core's check of the server's key settings, with this browser's memory and device.
 * `account` is this browser's ref of the account (from the name the person typed), never one
 * made from a name the server answered.
 */
export function checkServerKeySettings(
  account: AccountRef | null,
  answer: { kdf: unknown; keyGeneration?: unknown },
  device: DeviceProfile = currentDevice(),
): Promise<CheckedKeySettings> {
  return checkWithMemory(deviceMemory, account, answer, device);
}

/**
 * The client core's check of the key epoch an answer names for its wrapped vault key, with this
 * browser's memory: refused (KeyEpochRolledBackError) below the highest epoch this browser saw for
 * `account`. Call it before unwrapping, and unwrap with what it returns.
 */
export function checkServerKeyEpoch(account: AccountRef | null, answer: { keyEpoch?: unknown }): Promise<number> {
  return checkEpochWithMemory(deviceMemory, account, answer);
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
