import { hash, randomBytes } from 'node:crypto';

/** How many codes a set holds. */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * One recovery code: 80 random bits as 16 base32 characters (A-Z, 2-7), shown in groups of
 * four: `XXXX-XXXX-XXXX-XXXX`. 80 bits cannot be guessed online or brute-forced from a hash,
 * so a plain SHA-256 stores it safely (no slow hash needed).
 */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let text = '';
  for (let i = 15; i >= 0; i--) text += ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  return text.match(/.{4}/g)!.join('-');
}

/** The stored form of a code as typed: dashes and spaces dropped, upper case, then SHA-256. */
export function hashRecoveryCode(code: string): string {
  return hash('sha256', code.replace(/[\s-]+/g, '').toUpperCase(), 'hex');
}
