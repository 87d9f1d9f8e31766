import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

/** OWASP's Argon2id server parameters (m = 19 MiB, t = 2, p = 1). */
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes the authKey the client derived; the server never sees the master password, and
 * stores only this hash, so a database leak still needs an Argon2 guess per candidate.
 */
export function hashAuthKey(authKey: string): Promise<string> {
  return argon2.hash(authKey, HASH_OPTIONS);
}

export async function verifyAuthKey(hash: string, authKey: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, authKey);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same Argon2 work as a real verify, for a name that has no account, so the
 * answer time does not reveal whether the account exists. Always false.
 */
export async function verifyAgainstDummy(authKey: string): Promise<false> {
  dummyHash ??= argon2.hash(randomBytes(32).toString('base64url'), HASH_OPTIONS);
  await verifyAuthKey(await dummyHash, authKey);
  return false;
}
