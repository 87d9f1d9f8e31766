import { createHmac } from 'node:crypto';

/**
 * The salt prelogin answers for a name with no account: stable over time and looking like a
 * real random salt, so the answer does not tell whether the account exists.
 */
export function fakeSaltFor(secret: Buffer, usernameFolded: string): string {
  return createHmac('sha256', secret).update(`prelogin-salt|${usernameFolded}`).digest().subarray(0, 16).toString('base64url');
}
