import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** No 0/O, 1/I/L: nothing a person can misread from a mail. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 6;

export function generateCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/**
 * What is stored instead of the code: HMAC-SHA-256 under the server secret, bound to the
 * user, so a database leak neither reveals pending codes nor lets one be moved to another
 * account. Input is upper-cased: people may type the code in lower case.
 */
export function hashCode(secret: Buffer, userId: string, code: string): string {
  return createHmac('sha256', secret).update(`verification-code|${userId}|${code.trim().toUpperCase()}`).digest('hex');
}

export function codeMatches(secret: Buffer, userId: string, code: string, storedHash: string): boolean {
  const given = Buffer.from(hashCode(secret, userId, code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
