import { describe, expect, it } from 'vitest';
import { parseTotpSeed, totpCode, totpRemainingSeconds, totpUri, TotpSeedError, type TotpSeed } from './totp';

/** RFC 6238 Appendix B: the ASCII seeds "1234567890…" of 20, 32 and 64 bytes, in base32. */
const RFC_SEEDS = {
  SHA1: { ascii: '12345678901234567890', base32: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' },
  SHA256: { ascii: '12345678901234567890123456789012', base32: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA' },
  SHA512: {
    ascii: '1234567890123456789012345678901234567890123456789012345678901234',
    base32: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA',
  },
} as const;

/** RFC 6238 Appendix B, Table 1: time (s) and the 8-digit codes for SHA1, SHA256, SHA512. */
const RFC_VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

const seedOf = (algorithm: TotpSeed['algorithm']): TotpSeed => ({
  secret: RFC_SEEDS[algorithm].base32,
  algorithm,
  digits: 8,
  period: 30,
});

function refusal(input: string): string {
  try {
    parseTotpSeed(input);
  } catch (error) {
    expect(error).toBeInstanceOf(TotpSeedError);
    return (error as TotpSeedError).message;
  }
  throw new Error(`${input} was accepted`);
}

describe('totpCode', () => {
  it('matches the RFC 6238 test vectors for SHA1, SHA256 and SHA512', () => {
    for (const [seconds, sha1, sha256, sha512] of RFC_VECTORS) {
      expect(totpCode(seedOf('SHA1'), seconds * 1000), `SHA1 at ${seconds}`).toBe(sha1);
      expect(totpCode(seedOf('SHA256'), seconds * 1000), `SHA256 at ${seconds}`).toBe(sha256);
      expect(totpCode(seedOf('SHA512'), seconds * 1000), `SHA512 at ${seconds}`).toBe(sha512);
    }
  });

  it('uses the RFC seeds as the ASCII bytes the RFC names', () => {
    for (const { ascii, base32 } of Object.values(RFC_SEEDS)) {
      expect(parseTotpSeed(`otpauth://totp/x?secret=${base32}`).secret).toBe(base32);
      expect(base32ToAscii(base32)).toBe(ascii);
    }
  });

  it('keeps one code for the whole period and changes at its end', () => {
    const seed = seedOf('SHA1');
    expect(totpCode(seed, 1111111080_000)).toBe(totpCode(seed, 1111111109_999));
    expect(totpCode(seed, 1111111110_000)).not.toBe(totpCode(seed, 1111111109_999));
  });

  it('pads codes with leading zeros to the seed’s digits', () => {
    expect(totpCode({ ...seedOf('SHA1'), digits: 6 }, 1111111109_000)).toBe('081804');
  });
});

describe('totpRemainingSeconds', () => {
  const seed = { ...seedOf('SHA1'), period: 30 };

  it('counts the whole seconds until the code changes', () => {
    expect(totpRemainingSeconds(seed, 60_000)).toBe(30);
    expect(totpRemainingSeconds(seed, 60_001)).toBe(30);
    expect(totpRemainingSeconds(seed, 61_000)).toBe(29);
    expect(totpRemainingSeconds(seed, 89_000)).toBe(1);
    expect(totpRemainingSeconds(seed, 89_999)).toBe(1);
  });

  it('follows the seed’s period', () => {
    expect(totpRemainingSeconds({ ...seed, period: 60 }, 1_000)).toBe(59);
  });
});

describe('parseTotpSeed', () => {
  it('reads a bare base32 secret with the usual defaults', () => {
    expect(parseTotpSeed('JBSWY3DPEHPK3PXP')).toEqual({ secret: 'JBSWY3DPEHPK3PXP', algorithm: 'SHA1', digits: 6, period: 30 });
  });

  it('tolerates spaces, dashes, lower case and padding in a bare secret', () => {
    expect(parseTotpSeed('  jbsw y3dp-ehpk 3pxp  ').secret).toBe('JBSWY3DPEHPK3PXP');
    expect(parseTotpSeed('MZXW6===').secret).toBe('MZXW6');
  });

  it('reads an otpauth:// address: digits, period, algorithm, issuer and label', () => {
    expect(
      parseTotpSeed(
        'otpauth://totp/Example%20Bank:alice%40mail.example?secret=jbswy3dpehpk3pxp&issuer=Example%20Bank&algorithm=SHA256&digits=8&period=60',
      ),
    ).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      algorithm: 'SHA256',
      digits: 8,
      period: 60,
      issuer: 'Example Bank',
      label: 'alice@mail.example',
    });
  });

  it('takes the issuer from the label prefix when the address has no issuer parameter', () => {
    expect(parseTotpSeed('otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP')).toMatchObject({
      issuer: 'GitHub',
      label: 'alice',
    });
  });

  it('leaves issuer out when the address names none', () => {
    const seed = parseTotpSeed('OTPAUTH://TOTP/alice?secret=JBSWY3DPEHPK3PXP&algorithm=sha512');
    expect(seed).toEqual({ secret: 'JBSWY3DPEHPK3PXP', algorithm: 'SHA512', digits: 6, period: 30, label: 'alice' });
  });

  it('refuses an empty input', () => {
    expect(refusal('   ')).toBe('Enter a TOTP secret or an otpauth:// address.');
  });

  it('refuses a secret that is not base32, naming the stray character', () => {
    expect(refusal('JBSWY3DPEHPK3PX0')).toBe(
      'The secret contains "0", which is not base32 (the letters A to Z and the digits 2 to 7).',
    );
    expect(refusal('hello world!')).toMatch(/contains "!"/);
  });

  it('refuses a secret shorter than one byte', () => {
    expect(refusal('A')).toBe('The secret is too short: it needs at least two base32 characters.');
  });

  it('refuses counter-based HOTP addresses', () => {
    expect(refusal('otpauth://hotp/alice?secret=JBSWY3DPEHPK3PXP&counter=1')).toBe(
      'This is a counter-based (HOTP) code. Lockit supports time-based (TOTP) codes only.',
    );
  });

  it('refuses digits outside 6 to 8', () => {
    expect(refusal('otpauth://totp/a?secret=JBSWY3DPEHPK3PXP&digits=5')).toBe(
      'A code must have 6 to 8 digits; this address asks for "5".',
    );
    expect(refusal('otpauth://totp/a?secret=JBSWY3DPEHPK3PXP&digits=10')).toBe(
      'A code must have 6 to 8 digits; this address asks for "10".',
    );
    expect(refusal('otpauth://totp/a?secret=JBSWY3DPEHPK3PXP&digits=six')).toBe(
      'A code must have 6 to 8 digits; this address asks for "six".',
    );
  });

  it('refuses algorithms other than SHA1, SHA256 and SHA512', () => {
    expect(refusal('otpauth://totp/a?secret=JBSWY3DPEHPK3PXP&algorithm=MD5')).toBe(
      'The algorithm must be SHA1, SHA256 or SHA512; this address asks for "MD5".',
    );
    expect(refusal('otpauth://totp/a?secret=JBSWY3DPEHPK3PXP&algorithm=SHA224')).toMatch(/asks for "SHA224"/);
  });

  it('refuses a period outside 1 to 300 seconds', () => {
    expect(refusal('otpauth://totp/a?secret=JBSWY3DPEHPK3PXP&period=0')).toBe(
      'The period must be 1 to 300 seconds; this address asks for "0".',
    );
    expect(refusal('otpauth://totp/a?secret=JBSWY3DPEHPK3PXP&period=301')).toBe(
      'The period must be 1 to 300 seconds; this address asks for "301".',
    );
  });

  it('refuses an address without a secret, or with one that is not base32', () => {
    expect(refusal('otpauth://totp/a?issuer=Bank')).toBe('This otpauth:// address has no secret.');
    expect(refusal('otpauth://totp/a?secret=JBSW1Y3DP')).toBe(
      'The secret in this otpauth:// address is not base32 (the letters A to Z and the digits 2 to 7).',
    );
  });

  it('refuses an address it cannot read, and other kinds of address', () => {
    expect(refusal('otpauth://totp/?secret=JBSWY3DPEHPK3PXP')).toBe(
      'This otpauth:// address could not be read. It should look like otpauth://totp/Name?secret=…',
    );
    expect(refusal('https://example.com/?secret=JBSWY3DPEHPK3PXP')).toMatch(
      /^This is neither a TOTP secret nor an otpauth:\/\/ address\./,
    );
    expect(refusal('otpauth-migration://offline?data=CjEKCkhlbGxvId')).toMatch(/Google Authenticator export/);
  });

  it('refuses input past the stored document’s cap', () => {
    expect(refusal('A'.repeat(1001))).toBe('This is too long to be a TOTP secret (at most 1000 characters).');
  });
});

describe('totpUri', () => {
  it('writes an address that parseTotpSeed reads back to the same seed', () => {
    const seed: TotpSeed = {
      secret: 'JBSWY3DPEHPK3PXP',
      algorithm: 'SHA256',
      digits: 7,
      period: 45,
      issuer: 'Bank & Co',
      label: 'alice:main',
    };
    expect(parseTotpSeed(totpUri(seed))).toEqual(seed);
  });

  it('gives codes equal to the seed it came from', () => {
    const seed = seedOf('SHA512');
    expect(totpCode(parseTotpSeed(totpUri(seed)), 59_000)).toBe('90693936');
  });

  it('names a seed without a label after its issuer, or "TOTP", since the format needs a label', () => {
    const bare = parseTotpSeed('JBSWY3DPEHPK3PXP');
    expect(totpUri(bare)).toMatch(/^otpauth:\/\/totp\/TOTP\?/);
    expect(parseTotpSeed(totpUri({ ...bare, issuer: 'Bank' }))).toMatchObject({ issuer: 'Bank', label: 'Bank' });
  });
});

function base32ToAscii(base32: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes = bits.match(/.{8}/g) ?? [];
  return bytes.map((byte) => String.fromCharCode(parseInt(byte, 2))).join('');
}
