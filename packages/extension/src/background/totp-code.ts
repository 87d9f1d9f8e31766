import { Secret, TOTP, URI } from 'otpauth';

/**
 * The current code of a TOTP seed as the item holds it: an otpauth:// address (digits, period
 * and algorithm from it) or a base32 secret (6 digits, 30 s, SHA-1, the authenticator default).
 * Throws a readable error for anything else.
 */
export function totpCode(seed: string, now = Date.now()): string {
  const text = seed.trim();
  let totp: TOTP;
  try {
    if (/^otpauth:/i.test(text)) {
      const parsed = URI.parse(text);
      if (!(parsed instanceof TOTP)) throw new Error('not a TOTP');
      totp = parsed;
    } else {
      totp = new TOTP({ secret: Secret.fromBase32(text.replace(/[\s-]/g, '').toUpperCase()) });
    }
  } catch {
    throw new Error('This item’s one-time code setup cannot be read.');
  }
  return totp.generate({ timestamp: now });
}
