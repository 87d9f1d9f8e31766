import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, codeMatches, generateCode, hashCode } from './verification-code';

const secret = Buffer.alloc(32, 7);

describe('verification codes', () => {
  it('are 6 characters of an alphabet without look-alikes', () => {
    expect(CODE_ALPHABET).not.toMatch(/[0O1IL]/);
    for (let i = 0; i < 200; i += 1) expect(generateCode()).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
  });

  it('use every letter of the alphabet (no modulo bias towards a subset)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i += 1) for (const char of generateCode()) seen.add(char);
    expect(seen.size).toBe(CODE_ALPHABET.length);
  });

  it('match case-insensitively and only for their user', () => {
    const stored = hashCode(secret, 'user-1', 'ABC234');
    expect(codeMatches(secret, 'user-1', 'abc234', stored)).toBe(true);
    expect(codeMatches(secret, 'user-2', 'ABC234', stored)).toBe(false);
    expect(codeMatches(secret, 'user-1', 'ABC235', stored)).toBe(false);
    expect(codeMatches(Buffer.alloc(32, 8), 'user-1', 'ABC234', stored)).toBe(false);
  });

  it('are stored as a keyed hash that does not contain the code', () => {
    const stored = hashCode(secret, 'user-1', 'ABC234');
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.toUpperCase()).not.toContain('ABC234');
  });
});
