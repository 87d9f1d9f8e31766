import { describe, expect, it } from 'vitest';
import { KdfParamsRejectedError } from './errors';
import { checkKdfParams, DEFAULT_KDF_PARAMS, KDF_LIMITS, LEGACY_KDF_FLOOR } from './kdf-params';

const base = { algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 };

function rejection(params: unknown, options?: { legacyFloor: boolean }): KdfParamsRejectedError {
  try {
    checkKdfParams(params, options);
  } catch (error) {
    if (error instanceof KdfParamsRejectedError) return error;
    throw error;
  }
  throw new Error('checkKdfParams accepted the params');
}

describe('checkKdfParams', () => {
  it('accepts the defaults and returns a clean copy without unknown fields', () => {
    const copy = checkKdfParams({ ...DEFAULT_KDF_PARAMS, extra: 'ignored' });
    expect(copy).toEqual(DEFAULT_KDF_PARAMS);
    expect(copy).not.toHaveProperty('extra');
    expect(copy).not.toBe(DEFAULT_KDF_PARAMS);
  });

  it('accepts values exactly at the floor and exactly at the ceiling', () => {
    const floor = { algorithm: 'argon2id', memoryKiB: KDF_LIMITS.minMemoryKiB, iterations: 3, parallelism: 1 };
    const ceiling = { algorithm: 'argon2id', memoryKiB: KDF_LIMITS.maxMemoryKiB, iterations: 10, parallelism: 16 };
    expect(checkKdfParams(floor)).toEqual(floor);
    expect(checkKdfParams(ceiling)).toEqual(ceiling);
  });

  it('refuses a downgrade to m = 1 MiB, t = 1 and says so in plain words', () => {
    const error = rejection({ ...base, memoryKiB: 1024, iterations: 1 });
    expect(error.reason).toBe('below-floor');
    expect(error.message).toBe(
      'The server asked for key-derivation settings weaker than Lockit allows ' +
        '(memory 1024 KiB, minimum 65536 KiB; passes 1, minimum 3). Sign-in was stopped to protect your password.',
    );
  });

  it('puts the floor at the defaults (m = 64 MiB, t = 3), so the old floor is a downgrade', () => {
    expect(KDF_LIMITS.minMemoryKiB).toBe(DEFAULT_KDF_PARAMS.memoryKiB);
    expect(KDF_LIMITS.minIterations).toBe(DEFAULT_KDF_PARAMS.iterations);
    const oldFloor = { algorithm: 'argon2id', memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 };
    const error = rejection(oldFloor);
    expect(error.reason).toBe('below-floor');
    expect(error.message).toContain('memory 19456 KiB, minimum 65536 KiB; passes 2, minimum 3');
  });

  it('accepts the old floor only when the caller asks for the legacy floor, and nothing below it', () => {
    const oldFloor = { algorithm: 'argon2id', memoryKiB: LEGACY_KDF_FLOOR.minMemoryKiB, iterations: 2, parallelism: 1 };
    expect(checkKdfParams(oldFloor, { legacyFloor: true })).toEqual(oldFloor);
    const error = rejection({ ...oldFloor, memoryKiB: 19455 }, { legacyFloor: true });
    expect(error.reason).toBe('below-floor');
    expect(error.message).toContain('memory 19455 KiB, minimum 19456 KiB');
  });

  it.each([
    ['memory one KiB under the floor', { memoryKiB: 65535 }, 'memory 65535 KiB, minimum 65536 KiB'],
    ['two passes', { iterations: 2 }, 'passes 2, minimum 3'],
    ['zero lanes', { parallelism: 0 }, 'lanes 0, minimum 1'],
  ])('refuses %s as a downgrade', (_what, change, detail) => {
    const error = rejection({ ...base, ...change });
    expect(error.reason).toBe('below-floor');
    expect(error.message).toContain(detail);
    expect(error.message).toContain('weaker than Lockit allows');
  });

  it.each([
    ['m = 2 GiB', { memoryKiB: 2 * 1024 * 1024 }, 'memory 2097152 KiB, maximum 1048576 KiB'],
    ['t = 11', { iterations: 11 }, 'passes 11, maximum 10'],
    ['p = 17', { parallelism: 17 }, 'lanes 17, maximum 16'],
  ])('refuses %s as above the ceiling, with a message distinct from a downgrade', (_what, change, detail) => {
    const error = rejection({ ...base, ...change });
    expect(error.reason).toBe('above-ceiling');
    expect(error.message).toContain(detail);
    expect(error.message).toContain('heavier than Lockit allows');
    expect(error.message).not.toContain('weaker');
  });

  it('names the downgrade first when one value is too low and another too high', () => {
    expect(rejection({ ...base, memoryKiB: 1024, iterations: 11 }).reason).toBe('below-floor');
  });

  it.each([
    ['argon2i', { algorithm: 'argon2i' }],
    ['a differently spelt name', { algorithm: 'Argon2id' }],
    ['a missing algorithm', { algorithm: undefined }],
  ])('refuses the algorithm %s', (_what, change) => {
    const error = rejection({ ...base, ...change });
    expect(error.reason).toBe('malformed');
    expect(error.message).toMatch(/only Argon2id/);
  });

  it('never repeats a string the server chose in its message', () => {
    expect(rejection({ ...base, algorithm: '<img src=x onerror=alert(1)>' }).message).not.toContain('<img');
  });

  it.each([
    ['a fraction', { memoryKiB: 65536.5 }],
    ['a numeric string', { memoryKiB: '65536' }],
    ['NaN', { iterations: Number.NaN }],
    ['Infinity', { memoryKiB: Number.POSITIVE_INFINITY }],
    ['null', { parallelism: null }],
    ['a missing value', { iterations: undefined }],
    ['an unsafe integer', { memoryKiB: 2 ** 53 }],
  ])('refuses %s as not a whole number', (_what, change) => {
    const error = rejection({ ...base, ...change });
    expect(error.reason).toBe('malformed');
    expect(error.message).toContain('must be a whole number');
  });

  it.each([null, undefined, [], 'argon2id', 42])('refuses %j as not params at all', (value) => {
    expect(rejection(value).reason).toBe('malformed');
  });
});
