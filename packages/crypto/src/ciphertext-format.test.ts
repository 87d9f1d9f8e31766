import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CIPHERTEXT_PATTERN, formatCiphertext, parseCiphertext } from './ciphertext-format';
import { toBase64Url } from './encoding';
import { CiphertextFormatError } from './errors';

const IV = toBase64Url(new Uint8Array(12).fill(7));
const TAG = toBase64Url(new Uint8Array(16).fill(9));

function refusal(text: unknown): CiphertextFormatError {
  try {
    parseCiphertext(text as string);
  } catch (error) {
    if (error instanceof CiphertextFormatError) return error;
    throw error;
  }
  throw new Error(`parseCiphertext accepted ${String(text)}`);
}

describe('formatCiphertext and parseCiphertext', () => {
  it('write v1.<iv>.<data> and read it back', () => {
    const iv = Uint8Array.from({ length: 12 }, (_, i) => i);
    const data = Uint8Array.from({ length: 40 }, (_, i) => 255 - i);
    const text = formatCiphertext(iv, data);
    expect(text).toBe(`v1.${toBase64Url(iv)}.${toBase64Url(data)}`);
    expect(parseCiphertext(text)).toEqual({ version: 'v1', iv, data });
  });

  it('every formatted text matches the pattern the server enforces, and parses back', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 12, maxLength: 12 }),
        fc.uint8Array({ minLength: 16, maxLength: 300 }),
        (iv, data) => {
          const text = formatCiphertext(iv, data);
          expect(text).toMatch(CIPHERTEXT_PATTERN);
          expect(parseCiphertext(text)).toEqual({ version: 'v1', iv, data });
        },
      ),
    );
  });

  it('accepts data of exactly the tag length', () => {
    expect(parseCiphertext(`v1.${IV}.${TAG}`).data).toHaveLength(16);
  });

  it('refuses to format an IV other than 12 bytes or data shorter than the tag', () => {
    expect(() => formatCiphertext(new Uint8Array(16), new Uint8Array(16))).toThrow(RangeError);
    expect(() => formatCiphertext(new Uint8Array(12), new Uint8Array(15))).toThrow(RangeError);
  });
});

describe('parseCiphertext refuses', () => {
  it.each([
    ['two parts', `v1.${IV}`],
    ['four parts', `v1.${IV}.${TAG}.${TAG}`],
    ['an empty data part', `v1.${IV}.`],
  ])('%s', (_what, text) => {
    expect(refusal(text).reason).toBe('format');
  });

  it.each(['v3', 'v0', 'v10'])('the unknown version %s, with reason "version"', (version) => {
    const error = refusal(`${version}.${IV}.${TAG}`);
    expect(error.reason).toBe('version');
    expect(error.message).toContain(version);
    expect(error.message).toContain('Update Lockit');
  });

  it('an unknown version even when the rest has another shape', () => {
    expect(refusal(`v3.${IV}.${TAG}.extra`).reason).toBe('version');
  });

  it('v2 unless the caller accepts it: a key wrap relabelled v2 is not read', () => {
    expect(refusal(`v2.${IV}.${toBase64Url(new Uint8Array(48))}`).reason).toBe('version');
  });

  it.each([
    ['11 bytes', toBase64Url(new Uint8Array(11))],
    ['13 bytes', toBase64Url(new Uint8Array(13))],
    ['0 bytes', ''],
  ])('an IV of %s', (_what, iv) => {
    expect(refusal(`v1.${iv}.${TAG}`).reason).toBe('format');
  });

  it('data shorter than the 16-byte tag', () => {
    expect(refusal(`v1.${IV}.${toBase64Url(new Uint8Array(15))}`).reason).toBe('format');
  });

  it.each([
    ['a plus sign', `v1.${IV}.${TAG.slice(0, -2)}+A`],
    ['a slash', `v1.${IV.slice(0, -1)}/.${TAG}`],
    ['padding', `v1.${IV}.${TAG}==`],
    ['a space', `v1.${IV}.${TAG} `],
    ['a non-ASCII letter', `v1.${IV}.${TAG}é`],
  ])('%s in place of base64url', (_what, text) => {
    expect(refusal(text).reason).toBe('format');
  });

  it.each(['hunter2', 'correct horse battery staple', 'Mr. Smith. Hello', '', 'V1.abc.def'])('the plaintext %j', (text) => {
    const error = refusal(text);
    expect(error.reason).toBe('format');
    expect(error.message).toBe("This data is not in Lockit's encrypted format, so Lockit will not read it.");
  });

  it('a value that is not text at all', () => {
    expect(refusal(42).reason).toBe('format');
  });
});

describe('the padded format v2', () => {
  const V2 = ['v1', 'v2'] as const;
  const bucketData = (bucket: number) => Uint8Array.from({ length: bucket + 16 }, (_, i) => i & 255);

  it('writes v2.<iv>.<data> for a bucket plus the tag, matching the server pattern, and reads it back', () => {
    const iv = new Uint8Array(12).fill(1);
    for (const bucket of [32, 64, 256, 384, 512, 768, 1024]) {
      const text = formatCiphertext(iv, bucketData(bucket), 'v2');
      expect(text.startsWith('v2.')).toBe(true);
      expect(text).toMatch(CIPHERTEXT_PATTERN);
      expect(parseCiphertext(text, V2)).toEqual({ version: 'v2', iv, data: bucketData(bucket) });
    }
  });

  it('refuses to write or read v2 data that is not a bucket plus the tag', () => {
    const iv = new Uint8Array(12);
    for (const size of [16, 16 + 31, 16 + 33, 16 + 288]) {
      expect(() => formatCiphertext(iv, new Uint8Array(size), 'v2')).toThrow(RangeError);
      expect(refusal2(`v2.${IV}.${toBase64Url(new Uint8Array(size))}`).reason).toBe('format');
    }
  });

  it('the server pattern refuses v2 data shorter than the smallest bucket plus the tag', () => {
    expect(`v2.${IV}.${toBase64Url(new Uint8Array(47))}`).not.toMatch(CIPHERTEXT_PATTERN);
    expect(`v2.${IV}.${toBase64Url(new Uint8Array(48))}`).toMatch(CIPHERTEXT_PATTERN);
    expect(`v3.${IV}.${toBase64Url(new Uint8Array(48))}`).not.toMatch(CIPHERTEXT_PATTERN);
  });

  function refusal2(text: string): CiphertextFormatError {
    try {
      parseCiphertext(text, V2);
    } catch (error) {
      if (error instanceof CiphertextFormatError) return error;
      throw error;
    }
    throw new Error(`parseCiphertext accepted ${text}`);
  }
});
