import type { AppContext } from '../../app-context';
import type { UserRow } from '../../db/repositories/users-repository';
import { HttpError } from '../../http/http-error';
import { verifyAuthKey } from '../password-hashing';

export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect.';

/**
 * Re-authentication for a change to the account's ways in (adding or removing a security key
 * or passkey): the current authKey, checked under change-password's per-account ration, so a
 * stolen session is no unlimited guessing oracle and strangers' sign-in failures never block it.
 */
export async function requireCurrentPassword(
  ctx: Pick<AppContext, 'rateLimits'>,
  user: Pick<UserRow, 'id' | 'auth_hash'>,
  authKey: string,
): Promise<void> {
  await ctx.rateLimits.beforePasswordCheck(user.id);
  if (!(await verifyAuthKey(user.auth_hash, authKey))) throw new HttpError(403, CURRENT_PASSWORD_INCORRECT);
  await ctx.rateLimits.passwordCheckSucceeded(user.id);
}
