import { describe, expect, it } from 'vitest';
import { formatVaultState, isVersion1VaultState, parseTrashedAt, parseVaultState } from './vault-state';

const SUM = 'A'.repeat(43);
const TAG = 'B'.repeat(43);

describe('vault state strings', () => {
  it('read a version 2 state with its Trash count, and write it back the same', () => {
    const text = `v2.7.3.2.1.${SUM}.${TAG}`;
    const parts = parseVaultState(text);
    expect(parts).toEqual({ counter: 7, entries: 3, trashed: 2, folders: 1, sum: SUM, tag: TAG });
    expect(formatVaultState(parts!)).toBe(text);
    expect(isVersion1VaultState(text)).toBe(false);
  });

  it('still read a version 1 state, without a Trash count, and write it back as version 1', () => {
    const text = `v1.7.3.1.${SUM}.${TAG}`;
    const parts = parseVaultState(text);
    expect(parts).toEqual({ counter: 7, entries: 3, folders: 1, sum: SUM, tag: TAG });
    expect(formatVaultState(parts!)).toBe(text);
    expect(isVersion1VaultState(text)).toBe(true);
  });

  it('refuse a version 2 state without its Trash count, a version 1 state with one, and counter 0', () => {
    expect(parseVaultState(`v2.7.3.1.${SUM}.${TAG}`)).toBeNull();
    expect(parseVaultState(`v1.7.3.2.1.${SUM}.${TAG}`)).toBeNull();
    expect(parseVaultState(`v2.0.3.2.1.${SUM}.${TAG}`)).toBeNull();
    expect(parseVaultState(`v3.7.3.2.1.${SUM}.${TAG}`)).toBeNull();
  });
});

describe('trash times', () => {
  it('are whole milliseconds from 0 to the last a Date holds', () => {
    expect(parseTrashedAt('1790000000000')).toBe(1_790_000_000_000);
    expect(parseTrashedAt('0')).toBe(0);
    expect(parseTrashedAt('8640000000000000')).toBe(8_640_000_000_000_000);
    for (const bad of ['', '-1', '1.5', '01', '1e12', '8640000000000001', 'now', ' 1'])
      expect(parseTrashedAt(bad), bad).toBeNull();
  });
});
