import { describe, expect, it } from 'vitest';
import { checkKdfFitsDevice, deviceKdfCeiling } from './device-kdf-ceiling';
import { KdfParamsRejectedError } from './errors';
import { DEFAULT_KDF_PARAMS, KDF_LIMITS, type KdfParams } from './kdf-params';

const MIB = 1024;
const params = (memoryMiB: number, iterations: number): KdfParams => ({
  algorithm: 'argon2id',
  memoryKiB: memoryMiB * MIB,
  iterations,
  parallelism: 4,
});

function refusal(p: KdfParams, ceiling: ReturnType<typeof deviceKdfCeiling>): KdfParamsRejectedError {
  try {
    checkKdfFitsDevice(p, ceiling);
  } catch (error) {
    if (error instanceof KdfParamsRejectedError) return error;
    throw error;
  }
  throw new Error('the params were accepted');
}

describe('deviceKdfCeiling', () => {
  it('is the policy ceiling (1 GiB, t = 10) on a desktop that tells nothing', () => {
    expect(deviceKdfCeiling({ mobile: false })).toEqual({
      maxMemoryKiB: KDF_LIMITS.maxMemoryKiB,
      maxWorkKiB: KDF_LIMITS.maxMemoryKiB * KDF_LIMITS.maxIterations,
    });
  });

  it('never exceeds 1 GiB, whatever memory the device reports', () => {
    expect(deviceKdfCeiling({ mobile: false, memoryGiB: 64 }).maxMemoryKiB).toBe(KDF_LIMITS.maxMemoryKiB);
  });

  it('allows an eighth of the reported memory: 256 MiB on a 2 GiB device', () => {
    expect(deviceKdfCeiling({ mobile: false, memoryGiB: 2 }).maxMemoryKiB).toBe(256 * MIB);
  });

  it('caps phones at 256 MiB and about five times the default work', () => {
    expect(deviceKdfCeiling({ mobile: true, memoryGiB: 8 })).toEqual({ maxMemoryKiB: 256 * MIB, maxWorkKiB: 1024 * MIB });
  });

  it('never falls below the defaults, so every honest account stays usable', () => {
    const ceiling = deviceKdfCeiling({ mobile: true, memoryGiB: 0.25 });
    expect(() => checkKdfFitsDevice({ ...DEFAULT_KDF_PARAMS }, ceiling)).not.toThrow();
  });

  it.each([[Number.NaN], [0], [-4], [Number.POSITIVE_INFINITY]])('ignores the unusable memory report %s', (memoryGiB) => {
    expect(deviceKdfCeiling({ mobile: false, memoryGiB }).maxMemoryKiB).toBe(KDF_LIMITS.maxMemoryKiB);
  });
});

describe('checkKdfFitsDevice', () => {
  it('refuses 1 GiB on a phone before any work, saying the device cannot run it', () => {
    const error = refusal(params(1024, 3), deviceKdfCeiling({ mobile: true }));
    expect(error.reason).toBe('beyond-device');
    expect(error.message).toBe(
      'The server asked for key-derivation settings heavier than this device can run (1024 MiB of memory and 3 passes; ' +
        'this device allows at most 256 MiB and 4 passes at that size). Sign-in was stopped before any work started, so the page does not freeze.',
    );
  });

  it('refuses too many passes at an allowed size on a phone', () => {
    expect(refusal(params(256, 10), deviceKdfCeiling({ mobile: true })).reason).toBe('beyond-device');
  });

  it('accepts the policy ceiling on a desktop with enough memory', () => {
    expect(() => checkKdfFitsDevice(params(1024, 10), deviceKdfCeiling({ mobile: false, memoryGiB: 8 }))).not.toThrow();
  });

  it('refuses 512 MiB on a desktop that reports 2 GiB', () => {
    expect(refusal(params(512, 3), deviceKdfCeiling({ mobile: false, memoryGiB: 2 })).reason).toBe('beyond-device');
  });
});
