import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomInt, shuffle } from './random-int';

/** Pearson's statistic of observed counts against equal expected counts. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
}

/**
 * Critical values at p = 0.001 for the degrees of freedom used here (scipy chi2.ppf(0.999,
 * df)): a fair source exceeds them once in a thousand runs, a biased one almost always.
 */
const CRITICAL_P001: Record<number, number> = { 2: 13.816, 23: 49.728, 61: 100.888 };

afterEach(() => vi.restoreAllMocks());

describe('randomInt', () => {
  it('passes a chi-square test of uniformity over 62 values (124,000 draws)', () => {
    const counts = new Array<number>(62).fill(0);
    for (let i = 0; i < 124_000; i++) counts[randomInt(62)]!++;
    expect(chiSquare(counts)).toBeLessThan(CRITICAL_P001[61]!);
  });

  it('has no modulo bias: with n = 3 x 2^30 each third of the range is equally likely', () => {
    // `x % n` would return [0, 2^30) twice as often as the rest: half the draws, not a third.
    const n = 3 * 2 ** 30;
    const thirds = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) thirds[Math.floor(randomInt(n) / 2 ** 30)]!++;
    expect(chiSquare(thirds)).toBeLessThan(CRITICAL_P001[2]!);
  });

  it('throws away draws at or above the largest multiple of n, and draws again', () => {
    // n = 3: the limit is 2^32 - 1; a draw of 2^32 - 1 must be rejected, not returned as 0.
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(((array: Uint32Array) => {
      const view = array;
      view.fill(0xffffffff);
      view[1] = 7;
      return array;
    }) as typeof globalThis.crypto.getRandomValues);
    // Drain whatever the pool held before the spy.
    for (let i = 0; i < 256; i++) randomInt(2);
    expect(randomInt(3)).toBe(7 % 3);
  });

  it('refuses a range it cannot draw from', () => {
    for (const n of [0, -1, 1.5, 2 ** 32 + 1, Number.NaN]) expect(() => randomInt(n)).toThrow(RangeError);
    expect(randomInt(1)).toBe(0);
  });
});

describe('shuffle', () => {
  it('makes each of the 24 orders of 4 items equally likely (chi-square, 24,000 shuffles)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 24_000; i++) {
      const order = shuffle([0, 1, 2, 3]).join('');
      counts.set(order, (counts.get(order) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    expect(chiSquare([...counts.values()])).toBeLessThan(CRITICAL_P001[23]!);
  });
});
