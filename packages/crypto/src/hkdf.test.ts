import { describe, expect, it } from 'vitest';
import { hkdfSha256 } from './hkdf';
import { fromHex, toHex } from './test-support/hex';

const range = (from: number, to: number) => Uint8Array.from({ length: to - from + 1 }, (_, i) => from + i);

// RFC 5869 appendix A, the SHA-256 cases.
describe('hkdfSha256 against RFC 5869', () => {
  it('test case 1: basic', async () => {
    const okm = await hkdfSha256(new Uint8Array(22).fill(0x0b), range(0x00, 0x0c), range(0xf0, 0xf9), 42);
    expect(toHex(okm)).toBe('3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865');
  });

  it('test case 2: longer inputs and outputs', async () => {
    const okm = await hkdfSha256(range(0x00, 0x4f), range(0x60, 0xaf), range(0xb0, 0xff), 82);
    expect(toHex(okm)).toBe(
      'b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c' +
        '59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71' +
        'cc30c58179ec3e87c14c01d5c1f3434f1d87',
    );
  });

  it('test case 3: empty salt and info', async () => {
    const okm = await hkdfSha256(new Uint8Array(22).fill(0x0b), new Uint8Array(0), new Uint8Array(0), 42);
    expect(toHex(okm)).toBe('8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8');
  });
});

describe('hkdfSha256 output length', () => {
  it.each([0, -1, 1.5, 255 * 32 + 1])('refuses %d bytes', async (length) => {
    await expect(hkdfSha256(fromHex('00'), new Uint8Array(0), new Uint8Array(0), length)).rejects.toThrow(RangeError);
  });
});
