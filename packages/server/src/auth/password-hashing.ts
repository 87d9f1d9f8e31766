import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { createHashingQueue, defaultHashingConcurrency, type HashingLimits } from './hashing-queue';

/** OWASP's Argon2id server parameters (m = 19 MiB, t = 2, p = 1). */
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const DEFAULT_HASHING_QUEUE_MAX = 64;

/**
 * One queue per process, like libuv's thread pool it protects: every Argon2 job of every app
 * in this process goes through it (see auth/hashing-queue.ts).
 */
const hashing = createHashingQueue({ concurrency: defaultHashingConcurrency(), maxQueued: DEFAULT_HASHING_QUEUE_MAX });

/** Sets the process's Argon2 limits (buildApp, from the configuration). */
export function limitHashing(limits: HashingLimits): void {
  hashing.setLimits(limits);
}

/** Argon2 jobs running, waiting and refused in this process. */
export function hashingStats() {
  return hashing.stats;
}

/**
 * Hashes the authKey the client derived; the server never sees the master password, and
 * stores only this hash, so a database leak still needs an Argon2 guess per candidate.
 * Throws a 503 HttpError when the hashing queue is full.
 */
export function hashAuthKey(authKey: string): Promise<string> {
  return hashing.run(() => argon2.hash(authKey, HASH_OPTIONS));
}

/** False for a wrong key or a malformed hash; throws a 503 HttpError when the hashing queue is full. */
export function verifyAuthKey(hash: string, authKey: string): Promise<boolean> {
  return hashing.run(async () => {
    try {
      return await argon2.verify(hash, authKey);
    } catch {
      return false;
    }
  });
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same Argon2 work as a real verify, for a name that has no account, so the
 * answer time does not reveal whether the account exists. Always false (or the same 503 as
 * a real verify when the queue is full).
 */
export async function verifyAgainstDummy(authKey: string): Promise<false> {
  // Made outside the queue, once per process: it must not count against a caller's slot.
  dummyHash ??= argon2.hash(randomBytes(32).toString('base64url'), HASH_OPTIONS);
  await verifyAuthKey(await dummyHash, authKey);
  return false;
}
