import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a base64url MAC given in a cookie equals the expected one. Base64url's last
 * character carries spare bits, so only the one canonical spelling is accepted: no two cookie
 * strings (two rate-limit identities, two log lines) share one MAC.
 */
export function macMatches(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given, 'base64url');
  if (bytes.toString('base64url') !== given) return false;
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}
