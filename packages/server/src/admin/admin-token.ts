import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { verifyAuthKey } from '../auth/password-hashing';

/** OWASP's Argon2id server parameters, as for auth keys (auth/password-hashing.ts). */
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A token an operator chooses must be at least this long; a generated one has 43 characters. */
export const ADMIN_TOKEN_MIN_LENGTH = 16;

/** A new admin token: 32 random bytes, base64url. Shown once; only its hash is kept. */
export function newAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The PHC string ADMIN_TOKEN holds. */
export function hashAdminToken(token: string): Promise<string> {
  return argon2.hash(token, HASH_OPTIONS);
}

/**
 * Whether `token` is the one behind `hash`; a malformed hash matches nothing. Through the
 * process's Argon2 queue like every sign-in (a 503 when it is full), so admin sign-ins cannot
 * take the threads the rest of the server needs.
 */
export function verifyAdminToken(hash: string, token: string): Promise<boolean> {
  return verifyAuthKey(hash, token);
}
