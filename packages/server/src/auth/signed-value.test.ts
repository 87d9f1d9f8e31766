import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { macMatches } from './signed-value';

const mac = createHmac('sha256', 'secret').update('payload').digest();
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('macMatches', () => {
  it('accepts the canonical base64url spelling of the expected MAC', () => {
    expect(macMatches(mac.toString('base64url'), mac)).toBe(true);
  });

  it('refuses another spelling of the same bytes (the last character’s spare bits changed)', () => {
    const canonical = mac.toString('base64url');
    const respelled = canonical.slice(0, -1) + ALPHABET[ALPHABET.indexOf(canonical.at(-1)!) ^ 1]!;
    expect(Buffer.from(respelled, 'base64url').equals(mac)).toBe(true);
    expect(macMatches(respelled, mac)).toBe(false);
  });

  it('refuses a different MAC, a truncated one and padding', () => {
    const canonical = mac.toString('base64url');
    expect(
      macMatches(
        canonical.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        mac,
      ),
    ).toBe(false);
    expect(macMatches(canonical.slice(0, -2), mac)).toBe(false);
    expect(macMatches(`${canonical}=`, mac)).toBe(false);
    expect(macMatches('', mac)).toBe(false);
  });
});
