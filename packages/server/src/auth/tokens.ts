import { hash, randomBytes } from 'node:crypto';

/** An opaque bearer token: 32 random bytes, base64url. Lives only in an HttpOnly cookie. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps instead of the token. Tokens have 256 bits of entropy, so a plain
 * SHA-256 suffices: a database leak reveals nothing that can be presented as a cookie.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex'); // one-shot: no Hash object per authenticated request
}
