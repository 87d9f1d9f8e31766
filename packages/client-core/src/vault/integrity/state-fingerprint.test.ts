import { formatVaultState } from '@lockit/contract';
import { toBase64Url } from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { vaultStateFingerprint } from './state-fingerprint';

const bytes = (first: number[]) => toBase64Url(Uint8Array.from({ length: 32 }, (_, i) => first[i] ?? 0xee));
const state = (counter: number, tagStart: number[]) =>
  formatVaultState({ counter, entries: 3, trashed: 1, folders: 0, sum: bytes([]), tag: bytes(tagStart) });

describe('the vault state fingerprint a person compares between devices', () => {
  it('is the counter and the first four bytes of the tag in upper-case hex, in two groups', () => {
    expect(vaultStateFingerprint(state(42, [0x7f, 0x3a, 0x9c, 0x21]))).toEqual({ counter: 42, code: '7F3A 9C21' });
    expect(vaultStateFingerprint(state(1, [0x00, 0x01, 0x0a, 0xb0]))).toEqual({ counter: 1, code: '0001 0AB0' });
  });

  it('differs for a forked vault at the same counter (another tag)', () => {
    expect(vaultStateFingerprint(state(7, [1, 2, 3, 4]))?.code).not.toBe(vaultStateFingerprint(state(7, [1, 2, 3, 5]))?.code);
  });

  it('is null for what is not a vault state', () => {
    for (const value of ['', 'v2.0.0.0.0.x.y', 'garbage', `${state(3, [1])}.extra`])
      expect(vaultStateFingerprint(value)).toBeNull();
  });
});
