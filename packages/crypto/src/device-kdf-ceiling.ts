import { KdfParamsRejectedError } from './errors';
import { DEFAULT_KDF_PARAMS, KDF_LIMITS, type KdfParams } from './kdf-params';

/** What a browser tells about the device it runs on; every field may be unknown. */
export interface DeviceProfile {
  /** navigator.deviceMemory: RAM in GiB, rounded down to a power of two (0.25 to 8), if exposed. */
  memoryGiB?: number | undefined;
  /** A phone or tablet (navigator.userAgentData.mobile, or the user agent). */
  mobile: boolean;
}

/** The heaviest Argon2id this device is asked to run: memory, and memory × passes (its time). */
export interface KdfCeiling {
  maxMemoryKiB: number;
  /** memoryKiB × iterations: Argon2id's time grows with both. */
  maxWorkKiB: number;
}

const MIB = 1024;
/** Phones kill a tab long before desktops do; 256 MiB runs on any phone that runs a browser. */
const PHONE_MAX_MEMORY_KIB = 256 * MIB;
/** About 5× the default's work: some seconds on a phone, never a minute. */
const PHONE_MAX_WORK_KIB = 1024 * MIB;
/** One eighth of the device's memory: a tab that asks for more risks being killed. */
const MEMORY_SHARE = 1 / 8;

/**
 * The ceiling for a device: never more than KDF_LIMITS' (1 GiB, t = 10), at most an eighth of
 * navigator.deviceMemory where known, and 256 MiB / 1 GiB·passes on phones. Never below the
 * default params: every honest account must stay usable on every device.
 */
export function deviceKdfCeiling(device: DeviceProfile): KdfCeiling {
  const defaults = { memory: DEFAULT_KDF_PARAMS.memoryKiB, work: DEFAULT_KDF_PARAMS.memoryKiB * DEFAULT_KDF_PARAMS.iterations };
  let maxMemoryKiB: number = KDF_LIMITS.maxMemoryKiB;
  let maxWorkKiB: number = KDF_LIMITS.maxMemoryKiB * KDF_LIMITS.maxIterations;
  const memoryGiB = device.memoryGiB;
  if (typeof memoryGiB === 'number' && Number.isFinite(memoryGiB) && memoryGiB > 0) {
    maxMemoryKiB = Math.min(maxMemoryKiB, Math.floor(memoryGiB * 1024 * MIB * MEMORY_SHARE));
  }
  if (device.mobile) {
    maxMemoryKiB = Math.min(maxMemoryKiB, PHONE_MAX_MEMORY_KIB);
    maxWorkKiB = Math.min(maxWorkKiB, PHONE_MAX_WORK_KIB);
  }
  return { maxMemoryKiB: Math.max(maxMemoryKiB, defaults.memory), maxWorkKiB: Math.max(maxWorkKiB, defaults.work) };
}

/**
 * Throws KdfParamsRejectedError('beyond-device') when `params` ask more memory or work than
 * `ceiling`. Call it before any derivation starts: a server demanding what the device cannot
 * run is refused with a message, never met with a frozen or crashed tab.
 */
export function checkKdfFitsDevice(params: KdfParams, ceiling: KdfCeiling): void {
  const work = params.memoryKiB * params.iterations;
  if (params.memoryKiB <= ceiling.maxMemoryKiB && work <= ceiling.maxWorkKiB) return;
  const asked = `${mib(params.memoryKiB)} MiB of memory and ${params.iterations} passes`;
  const passes = Math.min(KDF_LIMITS.maxIterations, Math.floor(ceiling.maxWorkKiB / ceiling.maxMemoryKiB));
  const limit = `${mib(ceiling.maxMemoryKiB)} MiB and ${passes} passes at that size`;
  throw new KdfParamsRejectedError(
    'beyond-device',
    `The server asked for key-derivation settings heavier than this device can run (${asked}; this device allows at most ${limit}). Sign-in was stopped before any work started, so the page does not freeze.`,
  );
}

function mib(kib: number): number {
  return Math.round(kib / MIB);
}
