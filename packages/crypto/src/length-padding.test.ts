import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPaddedLength, paddedLength, padPlaintext, unpadPlaintext } from './length-padding';

describe('paddedLength: the bucket rule', () => {
  it('is the smallest multiple of 32 that holds the plaintext and the 0x80 marker, up to 256 bytes', () => {
    expect([0, 1, 30, 31, 32, 63, 64, 200, 223, 224, 254, 255].map(paddedLength)).toEqual([
      32, 32, 32, 32, 64, 64, 96, 224, 224, 256, 256, 256,
    ]);
  });

  it('grows by about x1.5 above 256 bytes: 384, 512, 768, 1024, 1536, 2048, 3072, ...', () => {
    expect([256, 383, 384, 511, 512, 767, 768, 1023, 1024, 1535, 1536, 2047, 2048, 3071].map(paddedLength)).toEqual([
      384, 384, 512, 512, 768, 768, 1024, 1024, 1536, 1536, 2048, 2048, 3072, 3072,
    ]);
    expect(paddedLength(65_535)).toBe(65_536);
    expect(paddedLength(65_536)).toBe(98_304);
  });

  it('always holds the plaintext plus the marker, and never more than 32 bytes or x1.5 beyond it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (length) => {
        const bucket = paddedLength(length);
        expect(bucket).toBeGreaterThan(length);
        expect(bucket).toBeLessThanOrEqual(Math.max(length + 32, Math.ceil((length + 1) * 1.5)));
        expect(isPaddedLength(bucket)).toBe(true);
      }),
    );
  });

  it('has few buckets: every length from 0 to 600 lands in one of 11', () => {
    const buckets = new Set(Array.from({ length: 601 }, (_, n) => paddedLength(n)));
    expect([...buckets]).toEqual([32, 64, 96, 128, 160, 192, 224, 256, 384, 512, 768]);
  });

  it('refuses a length that is not a whole number of bytes', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => paddedLength(bad)).toThrow(RangeError);
  });

  it('isPaddedLength knows only the buckets', () => {
    expect([32, 256, 384, 512, 768, 1024].every(isPaddedLength)).toBe(true);
    expect([0, 16, 33, 288, 320, 640, 1000, 1.5].some(isPaddedLength)).toBe(false);
  });
});

describe('padPlaintext and unpadPlaintext (ISO/IEC 7816-4)', () => {
  it('append 0x80 then zero bytes to the bucket, and strip them again', () => {
    const padded = padPlaintext(Uint8Array.of(1, 2, 3));
    expect(padded).toHaveLength(32);
    expect([...padded.slice(0, 5)]).toEqual([1, 2, 3, 0x80, 0]);
    expect(padded.slice(4).every((byte) => byte === 0)).toBe(true);
    expect(unpadPlaintext(padded)).toEqual(Uint8Array.of(1, 2, 3));
  });

  it('round-trip any bytes, trailing zeros and 0x80 bytes included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        expect(unpadPlaintext(padPlaintext(bytes))).toEqual(bytes);
      }),
    );
    const tricky = Uint8Array.of(0x80, 0, 0, 0x80, 0);
    expect(unpadPlaintext(padPlaintext(tricky))).toEqual(tricky);
  });

  it('refuse padding without the marker, with another last byte, or all zeros', () => {
    const noMarker = padPlaintext(Uint8Array.of(1, 2, 3));
    noMarker[3] = 0;
    expect(unpadPlaintext(noMarker)).toBeNull();
    const otherByte = padPlaintext(Uint8Array.of(1, 2, 3));
    otherByte[3] = 0x81;
    expect(unpadPlaintext(otherByte)).toBeNull();
    expect(unpadPlaintext(new Uint8Array(32))).toBeNull();
  });

  it('refuse a size that is not a bucket, and over-long padding (a smaller bucket would do)', () => {
    expect(unpadPlaintext(padPlaintext(Uint8Array.of(1)).slice(0, 31))).toBeNull();
    const overLong = new Uint8Array(64);
    overLong.set([1, 2, 3, 0x80]);
    expect(unpadPlaintext(overLong)).toBeNull();
  });
});
