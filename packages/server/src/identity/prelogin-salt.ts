import { createHmac } from 'node:crypto';

/**
 * The salt prelogin answers for a name with no account: stable over time and looking like a
 * real random salt, so the answer does not tell whether the account exists.
 */
export function fakeSaltFor(secret: Buffer, usernameFolded: string): string {
  return createHmac('sha256', secret).update(`prelogin-salt|${usernameFolded}`).digest().subarray(0, 16).toString('base64url');
}

/**
 * The key generation prelogin answers for a name with no account: stable over time and
 * distributed like real accounts' (the web app signs up at 1, fewer for each further password
 * change: 1/2 are 1, 1/4 are 2, 1/8 are 3...), so the number alone does not tell that no
 * account exists. (Accounts made before generations answer 0; they are not made any more.)
 */
export function fakeKeyGenerationFor(secret: Buffer, usernameFolded: string): number {
  let bits = createHmac('sha256', secret).update(`prelogin-generation|${usernameFolded}`).digest()[0]!;
  let generation = 1;
  while ((bits & 1) === 1) {
    generation += 1;
    bits >>= 1;
  }
  return generation;
}
