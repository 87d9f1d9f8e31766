import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url, utf8Decode, utf8Encode } from './encoding';
import { ascii, fromHex } from './test-support/hex';

describe('base64url', () => {
  // RFC 4648 section 10 test vectors, in the unpadded url alphabet.
  it.each([
    ['', ''],
    ['f', 'Zg'],
    ['fo', 'Zm8'],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg'],
    ['fooba', 'Zm9vYmE'],
    ['foobar', 'Zm9vYmFy'],
  ])('encodes and decodes the RFC 4648 vector %j as %j', (plain, encoded) => {
    expect(toBase64Url(ascii(plain))).toBe(encoded);
    expect(fromBase64Url(encoded)).toEqual(ascii(plain));
  });

  it('uses - and _ instead of + and /', () => {
    expect(toBase64Url(fromHex('fbff'))).toBe('-_8');
    expect(fromBase64Url('-_8')).toEqual(fromHex('fbff'));
  });

  it('round-trips every byte value at every length modulo 3', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (const length of [253, 254, 255, 256]) {
      const bytes = all.slice(0, length);
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    }
  });

  it.each([
    ['padding', 'Zg=='],
    ['the standard alphabet', 'ab+/'],
    ['whitespace', 'Zm9v Zg'],
    ['a dot', 'Zm9v.'],
    ['a non-ASCII letter', 'Zm9vé'],
    ['a character outside the BMP', 'Zm9v\u{1F600}'],
    ['a control character', 'Zm9v\u0000AAA'],
    ['the character just past the alphabet in code order', 'Zm9v{A'],
    ['an impossible length', 'Zm9vY'],
    ['non-zero unused bits', 'Zh'],
  ])('refuses %s', (_what, text) => {
    expect(() => fromBase64Url(text)).toThrow(TypeError);
  });
});

describe('utf8', () => {
  it('round-trips text outside the BMP', () => {
    expect(utf8Decode(utf8Encode('pässwörd 🔐 密码'))).toBe('pässwörd 🔐 密码');
  });

  it('refuses an unpaired surrogate instead of silently replacing it', () => {
    expect(() => utf8Encode('a\uD800b')).toThrow(TypeError);
    expect(() => utf8Encode('\uDC00')).toThrow(TypeError);
  });

  it('refuses invalid UTF-8 instead of inserting replacement characters', () => {
    expect(() => utf8Decode(fromHex('ff'))).toThrow(TypeError);
  });
});
