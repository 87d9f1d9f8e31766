import type { SecondFactorMethod } from '@lockit/contract';
import type { AppContext } from '../../app-context';
import type { UserRow } from '../../db/repositories/users-repository';

/**
 * The ways the user can complete a sign-in, in the order the app offers them: a security key
 * or passkey, the authenticator app, then a recovery code (only while some are left). Empty:
 * the account has no second factor (recovery codes alone are not one) and signs in as before.
 */
export async function secondFactorMethods(
  ctx: Pick<AppContext, 'repos'>,
  user: Pick<UserRow, 'id' | 'totp_secret'>,
): Promise<SecondFactorMethod[]> {
  const methods: SecondFactorMethod[] = [];
  if (await ctx.repos.twoFactor.hasCredentials(user.id)) methods.push('webauthn');
  if (user.totp_secret !== null) methods.push('totp');
  if (methods.length === 0) return methods;
  if ((await ctx.repos.twoFactor.countUnusedRecoveryCodes(user.id)) > 0) methods.push('recovery');
  return methods;
}
