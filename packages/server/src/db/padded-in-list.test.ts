import { describe, expect, it } from 'vitest';
import { padInList } from './padded-in-list';

describe('padInList', () => {
  it('pads to the next power of two with the first key, keeping every key and its order', () => {
    expect(padInList(['a'])).toEqual(['a']);
    expect(padInList(['a', 'b'])).toEqual(['a', 'b']);
    expect(padInList(['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'a']);
    const keys = Array.from({ length: 500 }, (_, n) => `k${n}`);
    const padded = padInList(keys);
    expect(padded).toHaveLength(512);
    expect(padded.slice(0, 500)).toEqual(keys);
    expect(new Set(padded.slice(500))).toEqual(new Set(['k0']));
  });

  it('gives ten lengths for lists of 1 to 512 keys', () => {
    const lengths = new Set(Array.from({ length: 512 }, (_, n) => padInList(Array.from({ length: n + 1 }, () => 'x')).length));
    expect([...lengths]).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
  });

  it('refuses an empty list, which would be no valid SQL', () => {
    expect(() => padInList([])).toThrow();
  });
});
